package dev.ferry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A blocking stream that sends what it is given as the chunks of an HTTP message body on a
 * channel, from a thread that is not the channel's loop. Bytes are copied once, into a chunk of
 * the channel's allocator, which goes out when full; a writer waits while the channel is not
 * writable, so a slow peer holds back the writer instead of filling memory. {@link #close} sends
 * the last chunk and waits until it is written: a write that failed surfaces there at the latest.
 * {@link #flush} sends nothing early: chunks go out full.
 */
public final class ChannelOutputStream extends OutputStream {
  private final Channel channel;
  private final int chunkBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition writable = lock.newCondition();
  private ByteBuf pending;
  private volatile Throwable failure;
  private long written;
  private boolean closed;

  /** Sends on {@code channel}, whose message head has been written, in chunks of this size. */
  public ChannelOutputStream(Channel channel, int chunkBytes) {
    this.channel = channel;
    this.chunkBytes = chunkBytes;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (closed) {
      throw new IOException("the stream is closed");
    }
    while (len > 0) {
      if (pending == null) {
        pending = channel.alloc().buffer(chunkBytes, chunkBytes);
      }
      int n = Math.min(len, pending.writableBytes());
      pending.writeBytes(b, off, n);
      off += n;
      len -= n;
      if (!pending.isWritable()) {
        send();
      }
    }
  }

  /** Bytes handed to the channel so far. */
  public long written() {
    return written;
  }

  /** Sends the chunk being filled, once the channel is writable. */
  private void send() throws IOException {
    ByteBuf chunk = pending;
    pending = null;
    try {
      awaitWritable();
    } catch (IOException e) {
      chunk.release();
      throw e;
    }
    written += chunk.readableBytes();
    channel.writeAndFlush(new DefaultHttpContent(chunk)).addListener(this::written);
  }

  private void written(io.netty.util.concurrent.Future<? super Void> f) {
    if (!f.isSuccess() && failure == null) {
      failure = f.cause();
    }
    writabilityChanged();
  }

  private void awaitWritable() throws IOException {
    lock.lock();
    try {
      while (!channel.isWritable()) {
        check();
        if (!channel.isActive()) {
          throw new IOException("the connection closed while the body was being sent");
        }
        writable.await();
      }
      check();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while sending");
    } finally {
      lock.unlock();
    }
  }

  private void check() throws IOException {
    Throwable t = failure;
    if (t != null) {
      throw t instanceof IOException io ? io : new IOException(t.getMessage(), t);
    }
  }

  /** Wakes a writer waiting for the channel: its writability changed, or it closed. */
  public void writabilityChanged() {
    lock.lock();
    try {
      writable.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Fails the stream: a writer waiting or writing next gets {@code cause}. */
  public void fail(Throwable cause) {
    if (failure == null) {
      failure = cause;
    }
    writabilityChanged();
  }

  /** Sends nothing: chunks go out when full, and the rest on {@link #close}. */
  @Override
  public void flush() {
    // a flush per XML or MIME write would send many small chunks
  }

  /** Sends the rest and the last chunk, and waits until they are written. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (pending != null && pending.isReadable()) {
      send();
    } else if (pending != null) {
      pending.release();
      pending = null;
    }
    awaitWritable();
    ChannelFuture last = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    try {
      last.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while sending");
    }
    if (!last.isSuccess()) {
      fail(last.cause());
    }
    check();
  }

  /** Drops what was not sent; the owner closes the channel, so the message ends broken. */
  public void abort(Throwable cause) {
    fail(cause);
    closed = true;
    if (pending != null) {
      pending.release();
      pending = null;
    }
  }
}
