package dev.ferry.bytes;

import dev.ferry.bytes.internal.BytesAccess;

/** The implementation of {@link BytesAccess}, installed when {@link ByteString} initializes. */
final class Access extends BytesAccess {
  @Override
  public byte[] array(ByteString s) {
    return s.array();
  }

  @Override
  public int arrayOffset(ByteString s) {
    return s.arrayOffset();
  }

  @Override
  public byte[] reserve(ByteStringBuilder b, int byteCount) {
    return b.reserve(byteCount);
  }

  @Override
  public void commit(ByteStringBuilder b, int byteCount) {
    b.commit(byteCount);
  }
}
