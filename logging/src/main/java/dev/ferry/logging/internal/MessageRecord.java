package dev.ferry.logging.internal;

import dev.ferry.logging.LogMasking;
import dev.ferry.logging.MessageLog;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The text of a message's record: its title, its HTTP headers one a line, an empty line, the
 * envelope up to the cap, then one line per attachment. Every part is masked before it is put
 * in; the envelope is masked as kept (the cap and some bytes past it), then cut at the cap, so
 * that no secret is cut in two before masking sees it.
 */
final class MessageRecord {
  private MessageRecord() {}

  /**
   * The record of a message; {@code last}: no later record follows, so an attachment still
   * going by is listed as it is (else the later record lists it).
   */
  static String of(MessageLog log, String title, Iterable<Map.Entry<String, String>> headers,
      MessageWire wire, boolean last) {
    LogMasking masking = log.masking();
    StringBuilder b = new StringBuilder(256).append(masking.apply(title));
    if (headers != null) {
      for (Map.Entry<String, String> h : headers) {
        b.append('\n').append(log.masksHeader(h.getKey()) ? h.getKey() + ": " + LogMasking.MASK
            : masking.apply(h.getKey() + ": " + h.getValue()));
      }
    }
    b.append("\n\n");
    envelope(b, masking, wire);
    List<MessageWire.Attachment> all = wire.attachments();
    for (MessageWire.Attachment a : all) {
      attachment(b, masking, a);
    }
    MessageWire.Attachment current = wire.current();
    if (last && current != null) {
      attachment(b, masking, current);
    }
    if (wire.lost() != null) {
      b.append("\n[").append(wire.lost()).append("; ").append(wire.totalBytes())
          .append(" bytes in all]");
    }
    return b.toString();
  }

  /** The attachments after the first {@code from}, for a record written before they went by. */
  static String attachments(MessageLog log, String title, MessageWire wire, int from) {
    LogMasking masking = log.masking();
    StringBuilder b = new StringBuilder(128).append(masking.apply(title)).append(" (continued)");
    List<MessageWire.Attachment> all = wire.attachments();
    for (MessageWire.Attachment a : all.subList(from, all.size())) {
      attachment(b, masking, a);
    }
    MessageWire.Attachment current = wire.current();
    if (current != null) {
      attachment(b, masking, current);
    }
    return b.toString();
  }

  private static void envelope(StringBuilder b, LogMasking masking, MessageWire wire) {
    long total = wire.envelopeBytes();
    if (total == 0) {
      // a body not read (a request refused before it was) looks the same as an empty one
      b.append(wire.contentType() == null ? "(no body)" : "(no envelope bytes went by)");
      return;
    }
    byte[] kept = wire.kept();
    int cap = wire.maxBytes();
    String text = new String(kept, StandardCharsets.UTF_8);
    if (total > kept.length) {
      // the kept bytes end inside the envelope: a run of digits there may be the start of a
      // card number too short to be recognised, so it goes
      text = text.replaceFirst("[0-9][0-9 -]*$", "");
    }
    String masked = masking.apply(text);
    if (total > cap) {
      // cut where the cap falls in the text (UTF-8 gives at most as many chars as bytes)
      int chars = new String(kept, 0, cap, StandardCharsets.UTF_8).length();
      masked = masked.substring(0, Math.min(chars, masked.length()));
    }
    b.append(masked);
    if (total > cap) {
      b.append("\n[... ").append(total - cap).append(" more envelope bytes not logged (").append(
          total).append(" in all, logged up to ").append(cap).append(")]");
    }
    if (!wire.envelopeWhole()) {
      b.append("\n[the envelope had not ended: ").append(total).append(" bytes went by]");
    }
  }

  private static void attachment(StringBuilder b, LogMasking masking, MessageWire.Attachment a) {
    b.append("\nattachment ").append(a.contentId() == null ? "(no Content-ID)"
        : "<" + masking.apply(a.contentId()) + ">");
    b.append(' ').append(a.contentType() == null ? "(no Content-Type)"
        : masking.apply(a.contentType()));
    if (a.whole()) {
      b.append(' ').append(a.bytes()).append(" bytes");
    } else {
      b.append(" size unknown (").append(a.bytes()).append(" bytes went by; the rest was not"
          + " read)");
    }
  }
}
