package dev.ferry.logging.internal;

import dev.ferry.mime.ContentIds;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MimeLimits;
import dev.ferry.mime.MultipartParser;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What of one message went by a tap: the first bytes of its envelope (the cap plus
 * {@link #SLACK}, so that a secret cut by the cap is still whole for masking), the envelope's
 * length, and each attachment's Content-ID, type and length, counted as it passes. A multipart
 * message is followed with Ferry's push MIME parser, which is shown the bytes where they are and
 * keeps none of them; attachment bytes are counted, never copied. Nothing here can fail the
 * exchange: a message whose framing cannot be followed is counted from there on and says so.
 */
final class MessageWire {
  /** Bytes kept past the cap, so that masking sees a secret the cap cuts whole. */
  static final int SLACK = 512;
  /** How the tap's parser follows any framing the exchange's own codec accepts. */
  private static final MimeLimits FOLLOW = MimeLimits.builder()
      .maxPartBytes(Long.MAX_VALUE).maxMessageBytes(Long.MAX_VALUE).build();

  /** An attachment that went by, or is going by. */
  record Attachment(String contentId, String contentType, long bytes, boolean whole) {}

  private final int maxBytes;
  private final Supplier<String> contentTypeSource;
  private String contentType;
  private boolean started;
  private boolean multipart;
  private byte[] kept = new byte[0];
  private int keptCount;
  private long envelopeBytes;
  private boolean envelopeWhole;
  private long totalBytes;
  private MultipartParser parser; // null: not multipart, or no longer followed
  private String start; // the root's Content-ID, from the start parameter; null: the first part
  private boolean inRoot;
  private boolean rootSeen;
  private String currentId; // the attachment going by
  private String currentType;
  private long currentBytes = -1; // -1: no attachment going by
  private final List<Attachment> attachments = new ArrayList<>();
  private String lost; // why the framing is no longer followed, or null

  MessageWire(int maxBytes, Supplier<String> contentType) {
    this.maxBytes = maxBytes;
    this.contentTypeSource = contentType;
  }

  /** Shows the wire {@code b[off, off + len)}, which it reads during the call only. */
  synchronized void see(byte[] b, int off, int len) {
    try {
      if (!started) {
        begin();
      }
      totalBytes += len;
      if (parser != null) {
        follow(b, off, len);
      } else if (lost == null && !rootSeen) {
        envelope(b, off, len);
      }
    } catch (RuntimeException e) {
      // a fault of the log's own must never reach the exchange
      parser = null;
      lost = "the log stopped following the message: " + e;
    }
  }

  private void begin() {
    started = true;
    contentType = contentTypeSource == null ? null : contentTypeSource.get();
    MediaType type = parse(contentType);
    if (type == null || !type.isMultipart() || type.boundary() == null) {
      return;
    }
    multipart = true;
    try {
      parser = MultipartParser.builder(type.boundary()).limits(FOLLOW).lenientHeaders(true)
          .build();
      String s = type.parameter("start");
      start = s == null ? null : ContentIds.strip(s);
    } catch (MimeException e) {
      lost = "its multipart framing cannot be followed: " + e.getMessage();
    }
  }

  private static MediaType parse(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  private void follow(byte[] b, int off, int len) {
    int pos = off;
    int end = off + len;
    try {
      while (true) {
        MultipartParser.Event e = parser.next(b, pos, end);
        pos += parser.consumed();
        switch (e) {
          case NEED_INPUT -> {
            return;
          }
          case PART_START -> partStart(parser.headers());
          case BODY -> body(parser.bodyArray(), parser.bodyOffset(), parser.bodyLength());
          case PART_END -> partEnd();
          case END -> {
            parser = null; // the epilogue is not the log's business
            return;
          }
        }
      }
    } catch (MimeException e) {
      parser = null;
      lost = "its multipart framing could not be followed past byte " + e.byteOffset() + " of "
          + "the body";
    }
  }

  private void partStart(MimeHeaders headers) {
    String id = headers.contentId();
    if (!rootSeen && (start == null || start.equals(id))) {
      inRoot = true;
      return;
    }
    currentId = id;
    currentType = headers.get("Content-Type");
    currentBytes = 0;
  }

  private void body(byte[] b, int off, int len) {
    if (inRoot) {
      envelope(b, off, len);
    } else if (currentBytes >= 0) {
      currentBytes += len; // counted, not kept
    }
  }

  private void partEnd() {
    if (inRoot) {
      inRoot = false;
      rootSeen = true;
      envelopeWhole = true;
    } else if (currentBytes >= 0) {
      attachments.add(new Attachment(currentId, currentType, currentBytes, true));
      currentBytes = -1;
    }
  }

  private void envelope(byte[] b, int off, int len) {
    envelopeBytes += len;
    int room = maxBytes + SLACK - keptCount;
    int n = Math.min(room, len);
    if (n <= 0) {
      return;
    }
    if (keptCount + n > kept.length) {
      int size = Math.min(maxBytes + SLACK, Math.max(keptCount + n, kept.length * 2));
      kept = java.util.Arrays.copyOf(kept, size);
    }
    System.arraycopy(b, off, kept, keptCount, n);
    keptCount += n;
  }

  synchronized String contentType() {
    if (!started) {
      begin();
    }
    return contentType;
  }

  synchronized byte[] kept() {
    return java.util.Arrays.copyOf(kept, keptCount);
  }

  synchronized long envelopeBytes() {
    return envelopeBytes;
  }

  /**
   * Whether the envelope went by whole: a multipart message's once its root part ended; a
   * single-part one is its body, which is logged when its reader or writer is done with it.
   */
  synchronized boolean envelopeWhole() {
    return multipart ? envelopeWhole : lost == null;
  }

  synchronized long totalBytes() {
    return totalBytes;
  }

  synchronized List<Attachment> attachments() {
    return List.copyOf(attachments);
  }

  /** Whether an attachment started going by and has not ended. */
  synchronized boolean unfinishedAttachment() {
    return currentBytes >= 0;
  }

  /** The attachment going by, as far as it went, or null. */
  synchronized Attachment current() {
    return currentBytes < 0 ? null
        : new Attachment(currentId, currentType, currentBytes, false);
  }

  synchronized String lost() {
    return lost;
  }

  int maxBytes() {
    return maxBytes;
  }
}
