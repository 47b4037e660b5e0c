package dev.ferry.jaxws.internal;

import dev.ferry.client.SoapResponse;
import dev.ferry.xop.Attachment;
import jakarta.activation.DataHandler;
import java.io.Closeable;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a client's reply open while DataHandlers made from its attachments are in use: they
 * read from the reply's spools (memory or temp files), not from copies. The reply is released
 * when the call hands out none, else when the last one is closed ({@link ReplyDataHandler} is
 * {@code Closeable}), or, as a safety net for callers that never close, when the last one is no
 * longer reachable.
 */
final class ReplyLease {
  private static final Cleaner CLEANER = Cleaner.create();

  private final SoapResponse response;
  private final List<Closeable> also = new ArrayList<>();
  private int handedOut;
  private boolean released;

  /** Holds {@code response}, or nothing (null: a handler answered, no reply came). */
  ReplyLease(SoapResponse response) {
    this.response = response;
  }

  /** Releases {@code c} (a handler chain's buffers) with the reply. */
  synchronized void alsoClose(Closeable c) {
    also.add(c);
  }

  /** A DataHandler over {@code a} that holds the reply open until closed. */
  synchronized DataHandler handler(Attachment a) {
    handedOut++;
    ReplyDataHandler dh = new ReplyDataHandler(new AttachmentDataSource(a));
    dh.cleanable = CLEANER.register(dh, this::returned);
    return dh;
  }

  /** Ends the call: releases the reply at once if no DataHandler was handed out. */
  synchronized void callDone() throws IOException {
    if (handedOut == 0) {
      release();
    }
  }

  private synchronized void returned() {
    if (--handedOut == 0) {
      try {
        release();
      } catch (IOException e) {
        // the temp files are gone or going; nothing waits for this
      }
    }
  }

  /** Releases the reply now (a failed call). */
  synchronized void release() throws IOException {
    if (released) {
      return;
    }
    released = true;
    try {
      for (Closeable c : also) {
        c.close();
      }
    } finally {
      if (response != null) {
        response.close();
      }
    }
  }

  /** A DataHandler of a reply's attachment; closing it lets the reply go. */
  static final class ReplyDataHandler extends DataHandler implements Closeable {
    private Cleaner.Cleanable cleanable;

    ReplyDataHandler(AttachmentDataSource source) {
      super(source);
    }

    @Override
    public void close() {
      cleanable.clean();
    }
  }
}
