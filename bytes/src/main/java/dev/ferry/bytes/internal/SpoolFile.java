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
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The file behind a spilled spool: one channel for appending and positional reads. It is also
 * the spool's cleaning action, so it must not refer back to the spool.
 *
 * <p>Appends gather in a buffer of {@value #BUFFER_BYTES} bytes and reads fill one, so that the
 * file sees writes and reads of that size whatever pieces the spool is given or asked for: a
 * part arriving in a sender's 4 KiB HTTP chunks made a system call per chunk (214 writes for a
 * 1 MiB attachment where a Content-Length sender's made 94), and a reader's 8 KiB buffer one
 * per 8 KiB. A read past what the file holds writes the buffer out first. Appending and
 * reading may happen on different threads (a stream opened on a spool still being written).
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

  /** Appends smaller than this gather in a buffer before they go to the file. */
  static final int BUFFER_BYTES = 64 * 1024;

  /** Process-wide use, for metrics: files open now and the bytes in them. */
  private static final AtomicLong FILES_IN_USE = new AtomicLong();
  private static final AtomicLong BYTES_IN_USE = new AtomicLong();

  private final Path path;
  private final FileChannel channel;
  private long writePosition; // bytes appended, the buffered ones too
  private long filePosition; // bytes in the file
  private byte[] pending; // appended, not yet in the file: writePosition - filePosition of them
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
  public synchronized void write(byte[] src, int offset, int byteCount) throws IOException {
    int buffered = (int) (writePosition - filePosition);
    if (buffered == 0 && byteCount >= BUFFER_BYTES) {
      writeToFile(src, offset, byteCount);
    } else {
      if (pending == null) {
        pending = new byte[BUFFER_BYTES];
      }
      for (int done = 0; done < byteCount; ) {
        int n = Math.min(byteCount - done, BUFFER_BYTES - buffered);
        System.arraycopy(src, offset + done, pending, buffered, n);
        buffered += n;
        done += n;
        if (buffered == BUFFER_BYTES) {
          writeToFile(pending, 0, buffered);
          buffered = 0;
        }
      }
    }
    writePosition += byteCount;
    BYTES_IN_USE.addAndGet(byteCount);
  }

  /** Writes out what the buffer holds, so that the file has every byte appended. */
  private void writeBuffered() throws IOException {
    int buffered = (int) (writePosition - filePosition);
    if (buffered > 0) {
      writeToFile(pending, 0, buffered);
    }
  }

  private void writeToFile(byte[] src, int offset, int byteCount) throws IOException {
    for (int done = 0; done < byteCount; ) {
      int n = Math.min(byteCount - done, MAX_TRANSFER_BYTES);
      ByteBuffer b = ByteBuffer.wrap(src, offset + done, n);
      while (b.hasRemaining()) {
        filePosition += channel.write(b, filePosition);
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
      private long position; // of the next byte to return
      private byte[] ahead; // read ahead from the file: aheadStart .. aheadStart + aheadLength
      private long aheadStart;
      private int aheadLength;

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
        if (position >= aheadStart + aheadLength || position < aheadStart) {
          if (want >= BUFFER_BYTES) { // large enough to go to the file directly
            int n = readFile(ByteBuffer.wrap(dest, offset, want), position);
            position += Math.max(n, 0);
            return n;
          }
          if (ahead == null) {
            ahead = new byte[BUFFER_BYTES];
          }
          int n = readFile(ByteBuffer.wrap(ahead, 0, (int) Math.min(BUFFER_BYTES, left)),
              position);
          if (n <= 0) {
            return n;
          }
          aheadStart = position;
          aheadLength = n;
        }
        int from = (int) (position - aheadStart);
        int n = Math.min(want, aheadLength - from);
        System.arraycopy(ahead, from, dest, offset, n);
        position += n;
        return n;
      }

      @Override
      public long skip(long n) {
        long step = Math.max(0, Math.min(n, end.getAsLong() - position));
        position += step;
        return step;
      }

      // InputStream's own readAllBytes reads 16 KiB at a time (each through the read-ahead
      // buffer, a copy more) and joins the pieces: three copies of the content. What is in the
      // file now is read straight into one array of its size; only what is appended while it
      // reads takes the general path.
      @Override
      public byte[] readAllBytes() throws IOException {
        return readNBytes(Integer.MAX_VALUE);
      }

      @Override
      public byte[] readNBytes(int len) throws IOException {
        if (len < 0) {
          throw new IllegalArgumentException("len < 0: " + len);
        }
        long there = Math.max(0, end.getAsLong() - position);
        long size = Math.min(len, there);
        if (size > Integer.MAX_VALUE - 8) {
          throw new OutOfMemoryError("spool file of " + there + " bytes is too large for an array");
        }
        byte[] all = new byte[(int) size];
        int n = readNBytes(all, 0, all.length);
        if (n < all.length) {
          return Arrays.copyOf(all, n);
        }
        byte[] more = n == len ? new byte[0] : super.readNBytes(len - n);
        if (more.length == 0) {
          return all;
        }
        byte[] joined = Arrays.copyOf(all, n + more.length);
        System.arraycopy(more, 0, joined, n, more.length);
        return joined;
      }

      // InputStream's own transferTo reads 16 KiB at a time through the read-ahead buffer; a
      // buffer of the read-ahead's size reads from the file straight into what is written out.
      @Override
      public long transferTo(OutputStream out) throws IOException {
        byte[] buffer = new byte[BUFFER_BYTES];
        long total = 0;
        for (int n; (n = read(buffer, 0, buffer.length)) >= 0; ) {
          out.write(buffer, 0, n);
          total += n;
        }
        return total;
      }
    };
  }

  /** Reads from the file at {@code position}, writing the buffer out first if it is needed. */
  private synchronized int readFile(ByteBuffer into, long position) throws IOException {
    if (position + into.remaining() > filePosition) {
      writeBuffered();
    }
    return channel.read(into, position);
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
    pending = null;
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
