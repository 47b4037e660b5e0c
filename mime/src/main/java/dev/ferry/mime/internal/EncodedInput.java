package dev.ferry.mime.internal;

import dev.ferry.mime.MimeException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The raw side of a streaming transfer decoder: a small buffer over the encoded stream with
 * look-ahead, and offsets for error messages.
 */
abstract class EncodedInput extends InputStream {
  private final InputStream raw;
  private final long baseOffset;
  private final String context;
  final byte[] in = new byte[4096];
  int inPos;
  int inEnd;
  private long consumedBefore; // raw bytes before in[0]
  boolean eof;

  EncodedInput(InputStream raw, long baseOffset, String context) {
    this.raw = raw;
    this.baseOffset = baseOffset;
    this.context = context;
  }

  /** Makes {@code n} bytes available at {@code inPos} unless the stream ends first. */
  final int ensure(int n) throws IOException {
    while (inEnd - inPos < n && !eof) {
      if (inPos > 0) {
        System.arraycopy(in, inPos, in, 0, inEnd - inPos);
        consumedBefore += inPos;
        inEnd -= inPos;
        inPos = 0;
      }
      int r = raw.read(in, inEnd, in.length - inEnd);
      if (r < 0) {
        eof = true;
      } else {
        inEnd += r;
      }
    }
    return inEnd - inPos;
  }

  final MimeException error(String reason, int position) {
    return new MimeException(reason, baseOffset + consumedBefore + position, context);
  }

  @Override
  public final int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public void close() throws IOException {
    raw.close();
  }
}
