package dev.ferry.broker.internal;

import dev.ferry.soap.Payload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.CompositeByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A held request's bytes on their way to a backend: gathered behind room for a grown envelope,
 * and sent on either as the changed envelope spliced before the caller's own buffers or as the
 * message written out whole, in each case where the socket takes it from (direct buffers).
 */
public final class HeldBytes {
  /** Room kept before a held request's bytes for a grown envelope to splice into. */
  public static final int HEADROOM = 1024;

  private HeldBytes() {}

  /** A copy of {@code source}'s {@code byteCount} readable bytes, behind {@link #HEADROOM}. */
  public static byte[] gather(List<ByteBuf> source, int byteCount) {
    byte[] body = new byte[HEADROOM + byteCount];
    int at = HEADROOM;
    for (ByteBuf b : source) {
      int n = b.readableBytes();
      b.getBytes(b.readerIndex(), body, at, n);
      at += n;
    }
    return body;
  }

  /**
   * The spliced package's head (up to the changed envelope's end, a few hundred bytes more than
   * the envelope), copied where the socket takes it from, then the rest as the caller's own
   * buffers {@code source}: the attachments go on from where they came in, not copied.
   * {@code head} is a buffer over an array {@link #gather} made, its limit at the old
   * envelope's end.
   */
  public static ByteBuf spliced(ByteBufAllocator alloc, ByteBuffer head, List<ByteBuf> source) {
    CompositeByteBuf out = alloc.compositeDirectBuffer(source.size() + 1);
    out.addComponent(true, alloc.directBuffer(head.remaining()).writeBytes(head));
    int skip = head.limit() - HEADROOM; // the source's bytes up to the old envelope's end
    for (ByteBuf b : source) {
      int n = b.readableBytes();
      if (skip < n) {
        out.addComponent(true, b.retainedSlice(b.readerIndex() + skip, n - skip));
      }
      skip = Math.max(0, skip - n);
    }
    return out;
  }

  /** {@code payload} written out whole into a direct buffer of {@code sizeHint} to start. */
  public static ByteBuf written(ByteBufAllocator alloc, Payload payload, int sizeHint)
      throws IOException {
    // written where the socket takes it from: a direct buffer, so Netty copies it no more
    ByteBuf out = alloc.directBuffer(sizeHint);
    try {
      payload.writeTo(new ByteBufOutputStream(out));
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    return out;
  }
}
