package dev.ferry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds a request body up to a size, to be sent whole with a Content-Length; at its first byte
 * beyond, streams it through what {@link Overflow} starts instead (what was held first).
 *
 * <p>The held bytes are written once, into chunks of an allocator's pooled direct memory, and
 * go to the socket from there: no heap array is made for them, and nothing copies them again
 * (a body held in heap arrays cost its own size of garbage a call and a second copy into direct
 * memory for the socket). Each new chunk is half the size held so far (8 KiB at least), so a
 * body takes about its own size. The chunks are the holder's until {@link #release}: a sent
 * {@link #content} is a view of them, so the body can be sent again for a retry.
 */
public final class RequestBody extends OutputStream {
  /** Starts a streamed send when it is given its first byte beyond the buffer. */
  @FunctionalInterface
  public interface Overflow {
    OutputStream start() throws IOException;
  }

  private static final int FIRST_CHUNK_BYTES = 8192;

  private final ByteBufAllocator alloc;
  private final int limit;
  private final Overflow overflow;
  private final Runnable progress;
  private final List<ByteBuf> filled = new ArrayList<>(4);
  private ByteBuf chunk; // null once streamed or released
  private int count;
  private long total;
  private OutputStream stream;

  /**
   * Holds up to {@code limit} bytes in {@code alloc}'s direct buffers; {@code progress} is told
   * of every write that went on to the stream.
   */
  public RequestBody(ByteBufAllocator alloc, int limit, Overflow overflow, Runnable progress) {
    this.alloc = alloc;
    this.limit = limit;
    this.overflow = overflow;
    this.progress = progress;
    int first = Math.min(limit, FIRST_CHUNK_BYTES);
    this.chunk = alloc.directBuffer(first, first);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    total += len;
    if (stream == null && count + len > limit) {
      startStream();
    }
    if (stream != null) {
      stream.write(b, off, len);
      progress.run();
      return;
    }
    if (chunk == null) {
      throw new IOException("the request body was released");
    }
    count += len;
    while (len > 0) {
      if (!chunk.isWritable()) {
        nextChunk(len);
      }
      int n = Math.min(len, chunk.writableBytes());
      chunk.writeBytes(b, off, n);
      off += n;
      len -= n;
    }
  }

  /** A new chunk for at least one of {@code pending} bytes, which are within the limit. */
  private void nextChunk(int pending) {
    filled.add(chunk);
    int held = count - pending;
    int size = Math.min(limit - held, Math.max(FIRST_CHUNK_BYTES, held / 2));
    chunk = alloc.directBuffer(size, size);
  }

  /** Sends what was held on the stream the overflow starts, then lets the chunks go. */
  private void startStream() throws IOException {
    stream = overflow.start();
    try {
      for (ByteBuf c : filled) {
        c.readBytes(stream, c.readableBytes());
      }
      chunk.readBytes(stream, chunk.readableBytes());
    } finally {
      release();
    }
  }

  /** Ends a streamed body (a held one is sent by the caller). */
  public void finish() throws IOException {
    if (stream != null) {
      stream.close();
    }
  }

  public boolean streamed() {
    return stream != null;
  }

  /**
   * The held body for one write: a view of the chunks (each retained once more, released by the
   * write), so the socket sends them from where they were written. Each call makes a new view,
   * for a retry; none after {@link #release}.
   */
  public ByteBuf content() {
    if (chunk == null) {
      throw new IllegalStateException("the request body was released");
    }
    if (filled.isEmpty()) {
      return chunk.retainedDuplicate();
    }
    CompositeByteBuf all = alloc.compositeDirectBuffer(filled.size() + 1);
    for (ByteBuf c : filled) {
      all.addComponent(true, c.retainedDuplicate());
    }
    all.addComponent(true, chunk.retainedDuplicate());
    return all;
  }

  public int size() {
    return count;
  }

  /** Every byte written to the body, held or streamed. */
  public long bytes() {
    return total;
  }

  /** Gives the chunks back to their pool (views still being written keep theirs); idempotent. */
  public void release() {
    for (ByteBuf c : filled) {
      c.release();
    }
    filled.clear();
    if (chunk != null) {
      chunk.release();
      chunk = null;
    }
  }
}
