package dev.ferry.mime;

import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.ThrottledInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.james.mime4j.stream.EntityState;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeConfig;
import org.apache.james.mime4j.stream.MimeTokenStream;
import org.apache.james.mime4j.stream.NameValuePair;
import org.apache.james.mime4j.stream.RawBody;
import org.apache.james.mime4j.stream.RawField;
import org.apache.james.mime4j.stream.RawFieldParser;
import org.apache.james.mime4j.stream.RecursionMode;

/**
 * Renders what a parser made of a multipart message as lines, the same way for Ferry and for
 * Apache mime4j, so the two can be compared: each part, its fields (values stripped), its parsed
 * Content-Type, then its body bytes or, for a multipart, its parts one level deeper.
 *
 * <pre>
 * part
 *   field Content-Type: multipart/mixed; boundary=1.x
 *   type multipart/mixed boundary=1.x
 *   multipart
 *   part
 *     field Content-ID: &lt;a@b&gt;
 *     body hello\r\n
 * </pre>
 */
final class PeerRendering {
  private PeerRendering() {}

  /** Ferry's pull reader, at every level, fed in {@code chunking}'s pieces. */
  static List<String> ferry(byte[] body, String contentType, Chunking chunking,
      boolean lenientLineEnds, boolean lenientHeaders) throws IOException {
    List<String> lines = new ArrayList<>();
    MediaType type = MediaType.parse(contentType);
    try (MultipartReader r = MultipartReader.builder(new ThrottledInputStream(body, chunking),
        type.boundary()).lenientLineEnds(lenientLineEnds).lenientHeaders(lenientHeaders)
        .build()) {
      ferryParts(r, 0, lines, lenientLineEnds, lenientHeaders);
    }
    return lines;
  }

  private static void ferryParts(MultipartReader r, int depth, List<String> lines,
      boolean lenientLineEnds, boolean lenientHeaders) throws IOException {
    for (Part p; (p = r.nextPart()) != null; ) {
      MediaType t = partHeader(p.headers(), depth, lines);
      if (t != null) {
        MultipartReader nested = MultipartReader.builder(p.body(), t.boundary())
            .lenientLineEnds(lenientLineEnds).lenientHeaders(lenientHeaders).build();
        ferryParts(nested, depth + 1, lines, lenientLineEnds, lenientHeaders);
      } else {
        lines.add(indent(depth + 1) + "body " + bytes(p.body().readAllBytes()));
      }
    }
  }

  /** Ferry's push parser, at every level, fed in {@code chunking}'s pieces. */
  static List<String> ferryPush(byte[] body, String contentType, Chunking chunking,
      boolean lenientLineEnds, boolean lenientHeaders) throws IOException {
    List<String> lines = new ArrayList<>();
    ferryPushParts(body, MediaType.parse(contentType).boundary(), chunking, 0, lines,
        lenientLineEnds, lenientHeaders);
    return lines;
  }

  private static void ferryPushParts(byte[] body, String boundary, Chunking chunking, int depth,
      List<String> lines, boolean lenientLineEnds, boolean lenientHeaders) throws IOException {
    for (MimeEvents.ParsedPart p : MimeEvents.parse(body, chunking,
        MultipartParser.builder(boundary).lenientLineEnds(lenientLineEnds)
            .lenientHeaders(lenientHeaders))) {
      MediaType t = partHeader(p.headers(), depth, lines);
      if (t != null) {
        ferryPushParts(p.body(), t.boundary(), chunking, depth + 1, lines, lenientLineEnds,
            lenientHeaders);
      } else {
        lines.add(indent(depth + 1) + "body " + bytes(p.body()));
      }
    }
  }

  /**
   * Adds a part's lines up to its body: the part, its fields, its type, and "multipart" if it
   * is one; returns its Content-Type then, else null.
   */
  private static MediaType partHeader(MimeHeaders h, int depth, List<String> lines) {
    lines.add(indent(depth) + "part");
    String in = indent(depth + 1);
    for (MimeHeaders.Field f : h.fields()) {
      lines.add(in + "field " + f.name() + ": " + f.value());
    }
    MediaType t = h.contentType();
    if (t != null) {
      lines.add(in + "type " + type(t.baseType(), t.parameters()));
    }
    if (t != null && t.isMultipart() && t.boundary() != null) {
      lines.add(in + "multipart");
      return t;
    }
    return null;
  }

  /** Apache mime4j's token stream, permissive (its default for unknown input), recursing. */
  static List<String> mime4j(byte[] body, String contentType) throws Exception {
    List<String> lines = new ArrayList<>();
    MimeTokenStream ts = new MimeTokenStream(MimeConfig.PERMISSIVE);
    ts.setRecursionMode(RecursionMode.M_RECURSE);
    ts.parseHeadless(new ByteArrayInputStream(body), contentType);
    int open = 0; // body parts entered and not left
    String type = null; // the first Content-Type of the part whose header is being read
    for (EntityState s = ts.getState(); s != EntityState.T_END_OF_STREAM; s = ts.next()) {
      switch (s) {
        case T_START_BODYPART -> {
          lines.add(indent(open++) + "part");
          type = null;
        }
        case T_FIELD -> {
          Field f = ts.getField();
          lines.add(indent(open) + "field " + f.getName() + ": " + f.getBody().strip());
          if (type == null && f.getName().equalsIgnoreCase("Content-Type")) {
            type = mime4jType((RawField) f);
          }
        }
        case T_END_HEADER -> {
          if (type != null && open > 0) {
            lines.add(indent(open) + "type " + type);
          }
        }
        case T_START_MULTIPART -> {
          if (open > 0) {
            lines.add(indent(open) + "multipart");
          }
        }
        case T_BODY -> lines.add(indent(open) + "body " + bytes(readAll(ts.getInputStream())));
        case T_END_BODYPART -> open--;
        default -> { } // preamble, epilogue, ends: not compared
      }
    }
    return lines;
  }

  private static String mime4jType(RawField f) {
    RawBody raw = RawFieldParser.DEFAULT.parseRawBody(f);
    Map<String, String> params = new java.util.LinkedHashMap<>();
    for (NameValuePair p : raw.getParams()) {
      params.putIfAbsent(p.getName().toLowerCase(Locale.ROOT), p.getValue());
    }
    return type(raw.getValue().strip().toLowerCase(Locale.ROOT), params);
  }

  private static String type(String base, Map<String, String> params) {
    StringBuilder s = new StringBuilder(base);
    params.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
    return s.toString();
  }

  private static byte[] readAll(InputStream in) throws IOException {
    return in.readAllBytes();
  }

  /** Body bytes as text: printable ASCII as it is, everything else escaped. */
  static String bytes(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      int c = x & 0xff;
      switch (c) {
        case '\r' -> s.append("\\r");
        case '\n' -> s.append("\\n");
        case '\\' -> s.append("\\\\");
        default -> s.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
            : String.format("\\x%02X", c));
      }
    }
    return s.toString();
  }

  private static String indent(int depth) {
    return "  ".repeat(depth);
  }
}
