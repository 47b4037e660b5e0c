package dev.ferry.ldap;

import dev.ferry.ldap.ProtocolOp.SearchResultDone;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.internal.LdapSpans;
import io.opentelemetry.api.trace.Span;
import java.io.Closeable;
import java.io.IOException;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The results of one search as they arrive: entries and references in server order, then the
 * final {@link SearchResultDone}. Closing before the end abandons the search.
 *
 * <p>Results wait in a bounded queue; when it is full the connection stops reading, so a slow
 * consumer slows the server through TCP instead of filling memory (and delays the connection's
 * other responses meanwhile).
 *
 * <pre>{@code
 * try (SearchResults results = connection.search(request)) {
 *   while (results.hasNext()) {
 *     LdapMessage m = results.next();                 // an entry or a reference
 *   }
 *   assert results.done().result().resultCode() == ResultCode.SUCCESS;
 * }
 * }</pre>
 */
public final class SearchResults implements Closeable {
  static final int QUEUE_CAPACITY = 1024;

  private final LdapConnection connection;
  private final int messageId;
  private final Operation search;
  private final long timeoutNanos;
  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
  private Object head;
  private LdapMessage done;
  private volatile boolean closed;
  private Span span; // the search's, until it ends
  private long entries;

  SearchResults(LdapConnection connection, int messageId, Operation search, long timeoutNanos,
      Span span) {
    this.connection = connection;
    this.messageId = messageId;
    this.search = search;
    this.timeoutNanos = timeoutNanos;
    this.span = span;
  }

  /** Returns the message ID of the search request. */
  public int messageId() {
    return messageId;
  }

  /**
   * Returns true if an entry or reference is available, waiting for the next message.
   *
   * @throws LdapException on timeout or when the connection fails
   */
  public boolean hasNext() throws IOException {
    if (head == null && done == null) {
      head = take();
      if (head instanceof LdapMessage m && m.op() instanceof SearchResultDone d) {
        done = m;
        head = null;
        Span s = takeSpan();
        if (s != null) {
          LdapSpans.endClient(s, d.result().resultCode().value(), entries);
        }
      } else if (head instanceof LdapMessage m && m.op() instanceof SearchResultEntry) {
        entries++;
      }
    }
    return head != null;
  }

  /** Returns the next entry or reference. */
  public LdapMessage next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("the search is done");
    }
    LdapMessage m = (LdapMessage) head;
    head = null;
    return m;
  }

  /** Returns the final message (its op is a {@link SearchResultDone}), consuming what is left. */
  public LdapMessage doneMessage() throws IOException {
    while (hasNext()) {
      next();
    }
    return done;
  }

  /** Returns the final result, consuming what is left. */
  public SearchResultDone done() throws IOException {
    return (SearchResultDone) doneMessage().op();
  }

  /** Abandons the search if it is not done, and drops queued results. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    boolean finished = done != null;
    Span s = takeSpan();
    if (s != null) {
      s.end(); // abandoned by the caller, or failed: no result, and no error of the search's
    }
    queue.clear();
    if (!finished && connection.forget(messageId)) {
      connection.abandon(messageId);
    }
  }

  private Object take() throws IOException {
    if (closed) {
      throw new IllegalStateException("search results are closed");
    }
    try {
      Object o = queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
      if (o == null) {
        LdapException e = new LdapException(search, ResultCode.TIMEOUT, "no search result"
            + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", null);
        failSpan(e);
        close();
        throw e;
      }
      if (o instanceof IOException e) {
        LdapException failed = new LdapException(search, ResultCode.SERVER_DOWN,
            e.getMessage(), e);
        failSpan(failed);
        throw failed;
      }
      return o;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for search results");
    }
  }

  /** Returns the search's span if it has not ended yet, once. */
  private Span takeSpan() {
    Span s = span;
    span = null;
    return s;
  }

  private void failSpan(Throwable failure) {
    Span s = takeSpan();
    if (s != null) {
      LdapSpans.fail(s, failure);
    }
  }

  /** Called by the reader thread; returns true when this was the last message. */
  boolean deliver(LdapMessage m) throws InterruptedException {
    boolean last = m.op() instanceof SearchResultDone;
    while (!closed && !queue.offer(m, 100, TimeUnit.MILLISECONDS)) {
      // full: wait for the consumer (or for close, which drops everything)
    }
    return last;
  }

  void fail(IOException e) {
    if (!closed) {
      queue.clear();
      queue.offer(e);
    }
  }
}
