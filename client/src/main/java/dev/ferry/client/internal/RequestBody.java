package dev.ferry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds a request body up to a size, to be sent whole with a Content-Length; at its first byte
 * beyond, streams it through what {@link Overflow} starts instead (what was held first).
 *
 * <p>The held bytes are chunks that are never copied into a larger array: each new chunk is half
 * the size held so far (8 KiB at least), so a body costs about its own size in memory, where an
 * array doubled from 8 KiB allocated three to four times a 33 KiB body.
 */
public final class RequestBody extends OutputStream {
  /** Starts a streamed send when it is given its first byte beyond the buffer. */
  @FunctionalInterface
  public interface Overflow {
    OutputStream start() throws IOException;
  }

  private static final int FIRST_CHUNK_BYTES = 8192;

  private final int limit;
  private final Overflow overflow;
  private final Runnable progress;
  private final List<byte[]> filled = new ArrayList<>(4);
  private byte[] chunk;
  private int inChunk;
  private int count;
  private OutputStream stream;

  /** {@code progress} is told of every write that went on to the stream. */
  public RequestBody(int limit, Overflow overflow, Runnable progress) {
    this.limit = limit;
    this.overflow = overflow;
    this.progress = progress;
    this.chunk = new byte[Math.min(limit, FIRST_CHUNK_BYTES)];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (stream == null && count + len > limit) {
      startStream();
    }
    if (stream != null) {
      stream.write(b, off, len);
      progress.run();
      return;
    }
    count += len;
    while (len > 0) {
      if (inChunk == chunk.length) {
        nextChunk(len);
      }
      int n = Math.min(len, chunk.length - inChunk);
      System.arraycopy(b, off, chunk, inChunk, n);
      inChunk += n;
      off += n;
      len -= n;
    }
  }

  /** A new chunk for at least one of {@code pending} bytes, which are within the limit. */
  private void nextChunk(int pending) {
    filled.add(chunk);
    int held = count - pending;
    chunk = new byte[Math.min(limit - held, Math.max(FIRST_CHUNK_BYTES, held / 2))];
    inChunk = 0;
  }

  /** Sends what was held on the stream the overflow starts, then lets the chunks go. */
  private void startStream() throws IOException {
    stream = overflow.start();
    for (byte[] c : filled) {
      stream.write(c, 0, c.length);
    }
    stream.write(chunk, 0, inChunk);
    filled.clear();
    chunk = null;
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
   * The held body in one buffer of {@code alloc}'s (a pooled direct one, on a connection's
   * allocator), a new one on every call, for one write. The socket takes its bytes from direct
   * memory: handed the heap chunks, Netty merged them into one new heap buffer and copied that
   * again, two copies and a body's size of garbage; this is one copy and none.
   */
  public ByteBuf content(ByteBufAllocator alloc) {
    ByteBuf out = alloc.directBuffer(count, count);
    for (byte[] c : filled) {
      out.writeBytes(c);
    }
    out.writeBytes(chunk, 0, inChunk);
    return out;
  }

  public int size() {
    return count;
  }
}
