package dev.ferry.bytes;

import static dev.ferry.bytes.internal.Checks.checkNotNegative;
import static dev.ferry.bytes.internal.Checks.checkPositive;

import dev.ferry.bytes.internal.SpoolFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sink that keeps bytes in memory up to a threshold and then moves them to a private temp file;
 * readable any number of times, and deleted on {@link #close()}.
 *
 * <p>The temp file is created with owner-only permissions (rw-------) where the file system
 * supports POSIX permissions. It is deleted by {@code close()}; a spool dropped without being
 * closed is reclaimed by a {@link Cleaner} once it is unreachable. {@code File.deleteOnExit} is
 * never used: in a long-running server its list only grows.
 *
 * <p>In memory the bytes are kept in chunks that are appended, never copied to grow (a chunk
 * is as large as all before it, from 2 KiB), so a spool allocates about what it holds.
 *
 * <p>A spool may be read while it is still written: a stream from {@link #openStream()} sees the
 * bytes written before it was opened while the spool is in memory, and those written before each
 * of its reads once the spool is in a file. Writing is not thread-safe; reading streams may be
 * used from other threads once writing is done.
 *
 * <pre>{@code
 * try (Spool spool = Spool.builder().memoryThresholdBytes(4).build()) {
 *   spool.write(new byte[] {1, 2, 3, 4, 5});         // over the threshold: now in a file
 *   assert !spool.isInMemory();
 *   assert spool.openStream().readAllBytes().length == 5;
 * }                                                  // the file is gone
 * }</pre>
 */
public final class Spool extends OutputStream {
  /** Bytes kept in memory before the spool moves to a file: {@value}. */
  public static final int DEFAULT_MEMORY_THRESHOLD_BYTES = 256 * 1024;
  /** Largest spool: {@value} bytes (4 GiB); a larger one must be asked for. */
  public static final long DEFAULT_MAX_BYTES = 4L * 1024 * 1024 * 1024;

  private static final Cleaner CLEANER = Cleaner.create();

  private final int memoryThresholdBytes;
  private final long maxBytes;
  private final Path directory;
  private static final int FIRST_CHUNK_BYTES = 2 * 1024;

  private List<byte[]> chunks = new ArrayList<>(); // in memory: all full but the last
  private int lastChunkUsed;
  private SpoolFile file; // non-null once spilled
  private Cleaner.Cleanable cleanable;
  private long size;
  private boolean closed;

  private Spool(Builder b) {
    this.memoryThresholdBytes = b.memoryThresholdBytes;
    this.maxBytes = b.maxBytes;
    this.directory = b.directory;
  }

  /** Returns a spool with the default threshold and limit, in the default temp directory. */
  public static Spool create() {
    return builder().build();
  }

  /** Returns a builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] src, int offset, int byteCount) throws IOException {
    Objects.checkFromIndexSize(offset, byteCount, src.length);
    ensureOpen();
    if (size + byteCount > maxBytes) {
      throw new LimitExceededException("Spool.maxBytes", maxBytes, size + byteCount, size);
    }
    if (file == null && size + byteCount > memoryThresholdBytes) {
      spill();
    }
    if (file == null) {
      appendToMemory(src, offset, byteCount);
    } else {
      file.write(src, offset, byteCount);
    }
    size += byteCount;
  }

  /** Appends to the memory chunks; the caller has checked that the threshold allows it. */
  private void appendToMemory(byte[] src, int offset, int byteCount) {
    long held = size;
    while (byteCount > 0) {
      byte[] last = chunks.isEmpty() ? null : chunks.get(chunks.size() - 1);
      if (last == null || lastChunkUsed == last.length) {
        long room = memoryThresholdBytes - held; // never more than the threshold in all
        last = new byte[(int) Math.min(Math.max(FIRST_CHUNK_BYTES, held), Math.max(room, 1))];
        chunks.add(last);
        lastChunkUsed = 0;
      }
      int n = Math.min(byteCount, last.length - lastChunkUsed);
      System.arraycopy(src, offset, last, lastChunkUsed, n);
      lastChunkUsed += n;
      offset += n;
      byteCount -= n;
      held += n;
    }
  }

  /** Copies every byte of {@code in} into this spool; returns how many. */
  public long writeFrom(InputStream in) throws IOException {
    byte[] chunk = new byte[8192];
    long total = 0;
    for (int n; (n = in.read(chunk)) >= 0; ) {
      write(chunk, 0, n);
      total += n;
    }
    return total;
  }

  /** Returns how many spools of this process are in temp files now (for metrics). */
  public static long filesInUse() {
    return SpoolFile.filesInUse();
  }

  /** Returns how many bytes spools of this process hold in temp files now (for metrics). */
  public static long fileBytesInUse() {
    return SpoolFile.bytesInUse();
  }

  /** Returns the number of bytes written. */
  public long size() {
    return size;
  }

  /** Returns true while the bytes are held in memory rather than in a file. */
  public boolean isInMemory() {
    return file == null;
  }

  /** Returns the temp file's path once the spool has spilled, else null (for tests and logs). */
  public Path path() {
    return file == null ? null : file.path();
  }

  /** Returns a new stream over the bytes written so far (and any written later). */
  public InputStream openStream() throws IOException {
    ensureOpen();
    if (file == null) {
      return new ChunkInputStream(List.copyOf(chunks), size);
    }
    return file.openStream(this::size);
  }

  /**
   * Returns the content as a byte string: without a copy while in memory, read from the file
   * otherwise.
   *
   * @throws IOException if the content is larger than a byte string can hold
   */
  public ByteString toByteString() throws IOException {
    ensureOpen();
    if (file == null && chunks.size() == 1) {
      return ByteString.wrapOwned(chunks.get(0), 0, (int) size); // later writes go past it
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IOException("spool of " + size + " bytes is too large for a ByteString");
    }
    byte[] all = new byte[(int) size]; // exactly once: no growing, no chunk list to join
    try (InputStream in = openStream()) {
      int n = in.readNBytes(all, 0, all.length);
      if (n != all.length) {
        throw new IOException("spool of " + size + " bytes read back only " + n);
      }
    }
    return ByteString.wrapOwned(all, 0, all.length);
  }

  /** Copies the content to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    try (InputStream in = openStream()) {
      in.transferTo(out);
    }
  }

  /** Releases the memory and deletes the temp file; safe to call more than once. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    chunks = null;
    if (cleanable != null) {
      cleanable.clean();
    }
  }

  private void spill() throws IOException {
    SpoolFile f = SpoolFile.create(directory);
    cleanable = CLEANER.register(this, f);
    try {
      long left = size;
      for (byte[] chunk : chunks) {
        int n = (int) Math.min(chunk.length, left);
        f.write(chunk, 0, n);
        left -= n;
      }
    } catch (IOException | UncheckedIOException e) {
      cleanable.clean();
      throw e;
    }
    file = f;
    chunks = null;
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("spool is closed");
    }
  }

  /**
   * Reads the first {@code size} bytes of a list of chunks. Reading all of it, or passing it on,
   * copies each byte once: {@code InputStream}'s own {@code readAllBytes} read into 8-16 KiB
   * buffers and joined them (about twice the content in garbage), and its {@code transferTo}
   * made a 16 KiB buffer a call; both are what code handed an attachment's stream calls.
   */
  private static final class ChunkInputStream extends InputStream {
    private final List<byte[]> chunks;
    private final long size;
    private long pos;
    private int chunk;
    private int inChunk;

    ChunkInputStream(List<byte[]> chunks, long size) {
      this.chunks = chunks;
      this.size = size;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Objects.checkFromIndexSize(off, len, b.length);
      if (pos >= size) {
        return len == 0 ? 0 : -1;
      }
      int n = 0;
      while (n < len && pos < size) {
        byte[] c = chunks.get(chunk);
        int k = (int) Math.min(Math.min(len - n, c.length - inChunk), size - pos);
        System.arraycopy(c, inChunk, b, off + n, k);
        n += k;
        advance(c, k);
      }
      return n;
    }

    /** Moves past {@code k} bytes of the current chunk {@code c}, to the next one at its end. */
    private void advance(byte[] c, int k) {
      pos += k;
      inChunk += k;
      if (inChunk == c.length) {
        chunk++;
        inChunk = 0;
      }
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, size - pos);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
      return readNBytes(Integer.MAX_VALUE);
    }

    @Override
    public byte[] readNBytes(int len) throws IOException {
      if (len < 0) {
        throw new IllegalArgumentException("len < 0: " + len);
      }
      long n = Math.min(len, size - pos);
      if (n > Integer.MAX_VALUE - 8) {
        throw new OutOfMemoryError("spool of " + size + " bytes is too large for an array");
      }
      byte[] all = new byte[(int) n];
      read(all, 0, all.length);
      return all;
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
      long total = 0;
      while (pos < size) {
        byte[] c = chunks.get(chunk);
        int k = (int) Math.min(c.length - inChunk, size - pos);
        out.write(c, inChunk, k);
        total += k;
        advance(c, k);
      }
      return total;
    }
  }

  @Override
  public String toString() {
    return "Spool[size=" + size + (file == null ? " in memory" : " in " + file.path()) + "]";
  }

  /** Configures a {@link Spool}. */
  public static final class Builder {
    private int memoryThresholdBytes = DEFAULT_MEMORY_THRESHOLD_BYTES;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private Path directory;

    private Builder() {}

    /** Bytes kept in memory before moving to a file; 0 spills at the first byte. */
    public Builder memoryThresholdBytes(int memoryThresholdBytes) {
      this.memoryThresholdBytes = (int) checkNotNegative("memoryThresholdBytes",
          memoryThresholdBytes);
      return this;
    }

    /** Largest number of bytes the spool accepts; more is a {@link LimitExceededException}. */
    public Builder maxBytes(long maxBytes) {
      this.maxBytes = checkPositive("maxBytes", maxBytes);
      return this;
    }

    /** Directory for the temp file; null (the default) means {@code java.io.tmpdir}. */
    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    /** Returns a new, empty spool. */
    public Spool build() {
      return new Spool(this);
    }
  }
}
