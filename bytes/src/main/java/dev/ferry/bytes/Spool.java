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
 * <p>A spool may be read while it is still written: each stream from {@link #openStream()} sees
 * the bytes written before each of its reads. Writing is not thread-safe; reading streams may be
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
  private ByteStringBuilder memory = new ByteStringBuilder(0);
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
    if (file == null && memory.size() + (long) byteCount > memoryThresholdBytes) {
      spill();
    }
    if (file == null) {
      memory.append(src, offset, byteCount);
    } else {
      file.write(src, offset, byteCount);
    }
    size += byteCount;
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
      return memory.toByteString().asInputStream();
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
    if (file == null) {
      return memory.toByteString();
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IOException("spool of " + size + " bytes is too large for a ByteString");
    }
    try (InputStream in = openStream()) {
      return ByteString.readFrom(in, (int) size);
    }
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
    memory = null;
    if (cleanable != null) {
      cleanable.clean();
    }
  }

  private void spill() throws IOException {
    SpoolFile f = SpoolFile.create(directory);
    cleanable = CLEANER.register(this, f);
    try {
      memory.writeTo(f.asOutputStream());
    } catch (IOException | UncheckedIOException e) {
      cleanable.clean();
      throw e;
    }
    file = f;
    memory = null;
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("spool is closed");
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
