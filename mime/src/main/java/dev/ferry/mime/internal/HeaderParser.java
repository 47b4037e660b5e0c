package dev.ferry.mime.internal;

import java.nio.charset.StandardCharsets;

/**
 * Splits one part's header section into fields, unfolding continuation lines (RFC 5322 section
 * 2.2.3). The section has been checked for line endings already; this class reports what is
 * wrong inside a line through {@link Sink#fail}.
 */
public final class HeaderParser {
  private HeaderParser() {}

  /** Receives fields and errors; offsets are relative to the section's first byte. */
  public interface Sink {
    void field(String name, String value);

    void fail(String reason, int relativeOffset, String header);
  }

  /** Parses {@code buf[0, length)}: complete lines, each ending in LF (CR before it optional). */
  public static void parse(byte[] buf, int length, int maxFields, Sink sink) {
    int lineStart = 0;
    String name = null;
    StringBuilder value = new StringBuilder();
    int count = 0;
    while (lineStart < length) {
      int lf = Bytes.indexOf(buf, (byte) '\n', lineStart, length);
      int contentEnd = lf > lineStart && buf[lf - 1] == '\r' ? lf - 1 : lf;
      byte first = buf[lineStart];
      if (first == ' ' || first == '\t') {
        if (name == null) {
          sink.fail("continuation line before any header field", lineStart, null);
          return;
        }
        value.append(text(buf, lineStart, contentEnd));
      } else {
        if (name != null) {
          sink.field(name, value.toString().strip());
        }
        int colon = Bytes.indexOf(buf, (byte) ':', lineStart, contentEnd);
        if (colon < 0) {
          sink.fail("header line without ':'", lineStart, null);
          return;
        }
        name = headerName(buf, lineStart, colon, sink);
        if (name == null) {
          return;
        }
        if (++count > maxFields) {
          sink.fail(null, lineStart, name); // the caller reports the limit
          return;
        }
        value.setLength(0);
        value.append(text(buf, colon + 1, contentEnd));
      }
      lineStart = lf + 1;
    }
    if (name != null) {
      sink.field(name, value.toString().strip());
    }
  }

  private static String headerName(byte[] buf, int start, int colon, Sink sink) {
    int end = colon;
    while (end > start && (buf[end - 1] == ' ' || buf[end - 1] == '\t')) {
      end--; // obsolete syntax (RFC 5322 4.5): white space before the colon
    }
    if (end == start) {
      sink.fail("empty header name", start, null);
      return null;
    }
    for (int i = start; i < end; i++) {
      int c = buf[i] & 0xff;
      if (c <= ' ' || c >= 127) {
        sink.fail("invalid byte " + Bytes.describe(buf[i]) + " in header name", i, null);
        return null;
      }
    }
    return new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
  }

  private static String text(byte[] buf, int start, int end) {
    return new String(buf, start, end - start, StandardCharsets.UTF_8);
  }
}
