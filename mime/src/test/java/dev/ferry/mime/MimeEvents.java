package dev.ferry.mime;

import dev.ferry.mime.MultipartParser.Event;
import dev.ferry.testkit.Chunking;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** Drives a {@link MultipartParser} over chunked input and records what it reports. */
final class MimeEvents {
  private MimeEvents() {}

  /** One part as the parser reported it. */
  record ParsedPart(MimeHeaders headers, byte[] body) {}

  /** Parses {@code input} fed in {@code chunking}'s pieces; the parts in order. */
  static List<ParsedPart> parse(byte[] input, Chunking chunking, MultipartParser.Builder b)
      throws MimeException {
    MultipartParser parser = b.build();
    List<ParsedPart> parts = new ArrayList<>();
    ByteArrayOutputStream body = null;
    MimeHeaders headers = null;
    byte[] pending = new byte[0]; // unconsumed input, passed again in front of the next chunk
    boolean ended = false;
    for (byte[] chunk : chunking.split(input)) {
      byte[] feed = concat(pending, chunk);
      int pos = 0;
      while (true) {
        Event e = parser.next(feed, pos, feed.length);
        pos += parser.consumed();
        if (e == Event.NEED_INPUT) {
          break;
        }
        switch (e) {
          case PART_START -> {
            headers = parser.headers();
            body = new ByteArrayOutputStream();
          }
          case BODY -> body.write(parser.bodyArray(), parser.bodyOffset(), parser.bodyLength());
          case PART_END -> parts.add(new ParsedPart(headers, body.toByteArray()));
          case END -> ended = true;
          default -> throw new AssertionError(e);
        }
      }
      pending = java.util.Arrays.copyOfRange(feed, pos, feed.length);
      if (pending.length != 0) {
        throw new AssertionError("parser left " + pending.length + " bytes after NEED_INPUT");
      }
    }
    if (parser.endOfInput() != Event.END || !ended) {
      throw new AssertionError("no END event");
    }
    return parts;
  }

  /** Parses and renders the parts as text lines: headers, then the body as UTF-8. */
  static List<String> render(byte[] input, Chunking chunking, MultipartParser.Builder b)
      throws MimeException {
    List<String> lines = new ArrayList<>();
    for (ParsedPart p : parse(input, chunking, b)) {
      lines.add("headers " + p.headers().fields());
      lines.add("body " + new String(p.body(), java.nio.charset.StandardCharsets.UTF_8)
          .replace("\r", "\\r").replace("\n", "\\n"));
    }
    return lines;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
