package dev.ferry.xop.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.xop.XopException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads a root part (an envelope) whole into the one array it is then held in. With its length
 * known beforehand (a Content-Length), the array is that long and filled straight from the
 * stream: one copy, one byte allocated per byte. Without, the bytes go into chunks borrowed from
 * a small shared pool and are copied once into an array of their exact size, so what is
 * allocated is still about one byte per byte, where a builder growing by doubling allocated
 * three or four.
 */
public final class RootReader {
  private static final int CHUNK_BYTES = 64 * 1024;
  /** Chunks kept for reuse across messages (4 MiB at most); more are left to the GC. */
  private static final int POOLED_CHUNKS = 64;
  private static final ConcurrentLinkedQueue<byte[]> POOL = new ConcurrentLinkedQueue<>();
  private static final AtomicInteger POOLED = new AtomicInteger();

  private RootReader() {}

  /**
   * Reads {@code in} to its end: {@code length} bytes if that is not negative (fewer is an
   * error), at most {@code maxBytes} in any case ({@code XopLimits.maxRootBytes}). The bytes
   * are taken from {@code budget} as they are read; the caller gives back the root's size when
   * it lets the root go (and nothing if this throws).
   */
  public static ByteString read(InputStream in, long length, int maxBytes, RootBudget budget,
      String where) throws IOException {
    if (length > maxBytes) {
      throw tooLong(maxBytes, length, where);
    }
    return length >= 0 ? exactly(in, (int) length, budget, where)
        : unknown(in, maxBytes, budget, where);
  }

  private static ByteString exactly(InputStream in, int length, RootBudget budget,
      String where) throws IOException {
    budget.take(length, where);
    byte[] b = new byte[length];
    int n;
    try {
      n = in.readNBytes(b, 0, length);
    } catch (IOException | RuntimeException e) {
      budget.give(length);
      throw e;
    }
    if (n < length) {
      budget.give(length);
      throw new EOFException("the " + where + " ended after " + n + " of the " + length
          + " bytes its Content-Length announced");
    }
    return ByteString.takeOwnership(b);
  }

  private static ByteString unknown(InputStream in, int maxBytes, RootBudget budget,
      String where) throws IOException {
    List<byte[]> chunks = new ArrayList<>(4);
    long total = 0;
    boolean whole = false;
    try {
      while (true) {
        byte[] chunk = borrow();
        chunks.add(chunk);
        int filled = in.readNBytes(chunk, 0, chunk.length);
        budget.take(filled, where);
        total += filled;
        if (total > maxBytes) {
          throw tooLong(maxBytes, total, where);
        }
        if (filled < chunk.length) {
          break;
        }
      }
      byte[] all = new byte[(int) total];
      int at = 0;
      for (byte[] c : chunks) {
        int n = (int) Math.min(c.length, total - at);
        System.arraycopy(c, 0, all, at, n);
        at += n;
      }
      whole = true;
      return ByteString.takeOwnership(all);
    } finally {
      chunks.forEach(RootReader::giveBack);
      if (!whole) {
        budget.give(total);
      }
    }
  }

  private static byte[] borrow() {
    byte[] c = POOL.poll();
    if (c == null) {
      return new byte[CHUNK_BYTES];
    }
    POOLED.decrementAndGet();
    return c;
  }

  private static void giveBack(byte[] chunk) {
    if (POOLED.incrementAndGet() <= POOLED_CHUNKS) {
      POOL.offer(chunk);
    } else {
      POOLED.decrementAndGet();
    }
  }

  private static XopException tooLong(int maxBytes, long seen, String where) {
    return XopException.limitExceeded("XopLimits.maxRootBytes", maxBytes, seen, -1,
        where + " (root)");
  }
}
