package dev.ferry.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded byte pipe between a writing thread and a reading thread: the writer blocks while it
 * is full, the reader while it is empty. Either side, or a third party, can {@link #abort} it,
 * after which both sides throw; so a stalled peer never leaves the other blocked for good.
 * (java.io's PipedInputStream checks thread liveness, which fails with pooled threads.)
 */
public final class Pipe {
  private final byte[] ring;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notFull = lock.newCondition();
  private final Condition notEmpty = lock.newCondition();
  private int head; // next byte to read
  private int count;
  private boolean closed; // the writer is done
  private IOException failure;
  private final Source source = new Source();
  private final Sink sink = new Sink();

  public Pipe(int capacity) {
    this.ring = new byte[capacity];
  }

  public InputStream source() {
    return source;
  }

  public OutputStream sink() {
    return sink;
  }

  /** Fails both sides with {@code cause} (the first cause wins). */
  public void abort(IOException cause) {
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      notFull.signalAll();
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void write(byte[] b, int off, int len) throws IOException {
    lock.lock();
    try {
      while (len > 0) {
        while (count == ring.length && failure == null) {
          await(notFull);
        }
        check();
        if (closed) {
          throw new IOException("the pipe is closed");
        }
        int tail = (head + count) % ring.length;
        int n = Math.min(len, Math.min(ring.length - count, ring.length - tail));
        System.arraycopy(b, off, ring, tail, n);
        count += n;
        off += n;
        len -= n;
        notEmpty.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  private int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    lock.lock();
    try {
      while (count == 0 && !closed && failure == null) {
        await(notEmpty);
      }
      check();
      if (count == 0) {
        return -1;
      }
      int n = Math.min(len, Math.min(count, ring.length - head));
      System.arraycopy(ring, head, b, off, n);
      head = (head + n) % ring.length;
      count -= n;
      notFull.signal();
      return n;
    } finally {
      lock.unlock();
    }
  }

  private void closeSink() {
    lock.lock();
    try {
      closed = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void check() throws IOException {
    if (failure != null) {
      throw new IOException(failure.getMessage(), failure);
    }
  }

  private static void await(Condition c) throws InterruptedIOException {
    try {
      c.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting on a pipe");
    }
  }

  private final class Source extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return Pipe.this.read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return Pipe.this.read(b, off, len);
    }

    @Override
    public void close() {
      abort(new IOException("the reading side of the pipe was closed"));
    }
  }

  private final class Sink extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      Pipe.this.write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Pipe.this.write(b, off, len);
    }

    @Override
    public void close() {
      closeSink();
    }
  }
}
