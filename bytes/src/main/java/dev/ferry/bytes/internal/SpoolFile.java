package dev.ferry.bytes.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The file behind a spilled spool: one channel for appending and positional reads. It is also
 * the spool's cleaning action, so it must not refer back to the spool.
 */
public final class SpoolFile implements Runnable {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> OWNER_ONLY =
      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

  /**
   * Largest single channel transfer: a heap buffer passes through a temporary direct buffer of
   * its own size, so a 12 MiB read would make (and the JDK might cache) a 12 MiB one.
   */
  private static final int MAX_TRANSFER_BYTES = 64 * 1024;

  /** Process-wide use, for metrics: files open now and the bytes in them. */
  private static final AtomicLong FILES_IN_USE = new AtomicLong();
  private static final AtomicLong BYTES_IN_USE = new AtomicLong();

  private final Path path;
  private final FileChannel channel;
  private long writePosition;
  private boolean released;

  private SpoolFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Creates a private temp file in {@code directory} (null: the default temp directory). */
  public static SpoolFile create(Path directory) throws IOException {
    Path dir = directory != null ? directory : Path.of(System.getProperty("java.io.tmpdir"));
    FileAttribute<?>[] attrs = POSIX
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
        : new FileAttribute<?>[0];
    Path path = Files.createTempFile(dir, "ferry-spool-", ".tmp", attrs);
    if (!POSIX) {
      restrictToOwner(path);
    }
    try {
      FileChannel channel = FileChannel.open(path, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FILES_IN_USE.incrementAndGet();
      return new SpoolFile(path, channel);
    } catch (IOException e) {
      Files.deleteIfExists(path);
      throw e;
    }
  }

  private static void restrictToOwner(Path path) {
    var f = path.toFile();
    f.setReadable(false, false);
    f.setWritable(false, false);
    f.setReadable(true, true);
    f.setWritable(true, true);
  }

  public Path path() {
    return path;
  }

  /** Appends bytes at the end of the file. */
  public void write(byte[] src, int offset, int byteCount) throws IOException {
    for (int done = 0; done < byteCount; ) {
      int n = Math.min(byteCount - done, MAX_TRANSFER_BYTES);
      ByteBuffer b = ByteBuffer.wrap(src, offset + done, n);
      while (b.hasRemaining()) {
        int written = channel.write(b, writePosition);
        writePosition += written;
        BYTES_IN_USE.addAndGet(written);
      }
      done += n;
    }
  }

  /** Returns an output stream that appends; errors surface as {@link UncheckedIOException}. */
  public OutputStream asOutputStream() {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        SpoolFile.this.write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        SpoolFile.this.write(b, off, len);
      }
    };
  }

  /** Returns a stream that reads from the start up to the size {@code end} gives at each read. */
  public InputStream openStream(LongSupplier end) {
    return new InputStream() {
      private long position;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] dest, int offset, int byteCount) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, byteCount, dest.length);
        long left = end.getAsLong() - position;
        if (left <= 0) {
          return byteCount == 0 ? 0 : -1;
        }
        int want = (int) Math.min(Math.min(byteCount, left), MAX_TRANSFER_BYTES);
        int n = channel.read(ByteBuffer.wrap(dest, offset, want), position);
        if (n > 0) {
          position += n;
        }
        return n;
      }

      @Override
      public long skip(long n) {
        long step = Math.max(0, Math.min(n, end.getAsLong() - position));
        position += step;
        return step;
      }
    };
  }

  /** Returns the number of spool files open in this process. */
  public static long filesInUse() {
    return FILES_IN_USE.get();
  }

  /** Returns the bytes held in spool files in this process. */
  public static long bytesInUse() {
    return BYTES_IN_USE.get();
  }

  /** Closes the channel and deletes the file; run by close() or by the cleaner. */
  @Override
  public void run() {
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
    }
    FILES_IN_USE.decrementAndGet();
    BYTES_IN_USE.addAndGet(-writePosition);
    try {
      channel.close();
    } catch (IOException ignored) {
      // Deleting matters more than a failed close.
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // Nothing more can be done; the file is in a private temp directory entry.
    }
  }
}
