package dev.ferry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A blocking stream over the bytes a channel's event loop hands over: the loop {@link #offer}s
 * each chunk as it arrives (no copy), a reader thread takes them. When more than a bound waits
 * unread, the channel stops reading (TCP pushes back on the sender) until the reader has taken
 * half of it, so a slow reader never makes the bytes pile up in memory.
 *
 * <p>A waiting reader is woken once a quarter of that bound waits, at the end, or
 * {@link #WAKE_MICROS} after the first chunk it has not been woken for, whichever comes first:
 * not for every chunk. A sender that writes its body in small chunks (CXF's client sends 4 KiB
 * HTTP chunks) would otherwise cost a thread wake-up, two context switches, per chunk, which
 * was most of the CPU a 1 MiB request streamed through the broker took.
 */
public final class ChannelInputStream extends InputStream {
  /** The longest a chunk waits for its reader to be woken when fewer bytes than that wait. */
  static final long WAKE_MICROS = 1000;
  private final Channel channel;
  private final int pauseBytes;
  private final int wakeBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>();
  private long buffered;
  private boolean ended;
  private boolean closed;
  private boolean paused;
  /** Whether the reader waits for bytes, and whether a wake-up for it is scheduled. */
  private boolean readerWaiting;
  private boolean wakeScheduled;
  private IOException failure;

  /** Reads {@code channel}'s bytes; stops the channel's reading beyond {@code pauseBytes}. */
  public ChannelInputStream(Channel channel, int pauseBytes) {
    this.channel = channel;
    this.pauseBytes = pauseBytes;
    this.wakeBytes = Math.max(1, pauseBytes / 4);
  }

  /** Hands over {@code bytes}, retained for this stream, which releases them. On the loop. */
  public void offer(ByteBuf bytes) {
    lock.lock();
    try {
      if (closed || failure != null) {
        bytes.release();
        return;
      }
      chunks.add(bytes);
      buffered += bytes.readableBytes();
      if (buffered >= pauseBytes && !paused) {
        paused = true;
        channel.config().setAutoRead(false);
      }
      if (readerWaiting) {
        wakeReader();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * With the lock held and the reader waiting: wakes it if enough bytes wait, else makes sure
   * it is woken a little later (on the channel's loop, which offers).
   */
  private void wakeReader() {
    if (buffered >= wakeBytes) {
      changed.signalAll();
    } else if (!wakeScheduled) {
      wakeScheduled = true;
      channel.eventLoop().schedule(this::wakeLate, WAKE_MICROS, TimeUnit.MICROSECONDS);
    }
  }

  private void wakeLate() {
    lock.lock();
    try {
      wakeScheduled = false;
      if (readerWaiting && !chunks.isEmpty()) {
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Marks the end of the bytes: the reader gets -1 once it has taken what came. */
  public void end() {
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Fails the stream: the reader gets {@code cause} once it has taken what came before. */
  public void fail(IOException cause) {
    lock.lock();
    try {
      if (failure == null && !ended) {
        failure = cause;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether the channel's reading is stopped because the reader is behind. */
  public boolean paused() {
    lock.lock();
    try {
      return paused;
    } finally {
      lock.unlock();
    }
  }

  /** Whether every byte came and the reader took it. */
  public boolean drained() {
    lock.lock();
    try {
      return ended && chunks.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    lock.lock();
    try {
      ByteBuf head = await();
      if (head == null) {
        return -1;
      }
      int n = Math.min(len, head.readableBytes());
      head.readBytes(b, off, n);
      if (!head.isReadable()) {
        chunks.poll().release();
      }
      buffered -= n;
      if (paused && buffered <= pauseBytes / 2) {
        paused = false;
        channel.config().setAutoRead(true);
      }
      return n;
    } finally {
      lock.unlock();
    }
  }

  /** Waits for a chunk; returns null at the end. Holds the lock. */
  private ByteBuf await() throws IOException {
    while (chunks.isEmpty()) {
      if (closed) {
        throw new IOException("the stream is closed");
      }
      if (failure != null) {
        throw failure;
      }
      if (ended) {
        return null;
      }
      readerWaiting = true;
      try {
        changed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for bytes");
      } finally {
        readerWaiting = false;
      }
    }
    return chunks.peek();
  }

  @Override
  public int available() {
    lock.lock();
    try {
      return (int) Math.min(Integer.MAX_VALUE, buffered);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Releases what waits unread, and drops what comes later; the channel reads on (its owner
   * decides whether to reuse or close it).
   */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      if (paused) {
        paused = false;
        channel.config().setAutoRead(true);
      }
      for (ByteBuf c; (c = chunks.poll()) != null; ) {
        c.release();
      }
      buffered = 0;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
