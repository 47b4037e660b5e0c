package dev.ferry.mime.internal;

import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeHeaders.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one part's header section into fields, unfolding continuation lines (RFC 5322 section
 * 2.2.3). The section has been checked for line endings already; what is wrong inside a line is a
 * {@link MimeException} at the offending byte.
 */
public final class HeaderParser {
  private final byte[] buf;
  private final long baseOffset;
  private final String context;

  private HeaderParser(byte[] buf, long baseOffset, String context) {
    this.buf = buf;
    this.baseOffset = baseOffset;
    this.context = context;
  }

  /**
   * Parses {@code buf[0, length)}, complete lines each ending in LF (CR before it optional),
   * whose first byte is at absolute {@code baseOffset}.
   *
   * @throws MimeException for a malformed line, or more than {@code maxFields} fields
   */
  public static List<Field> parse(byte[] buf, int length, int maxFields, long baseOffset,
      String context) throws MimeException {
    return new HeaderParser(buf, baseOffset, context).fields(length, maxFields);
  }

  private List<Field> fields(int length, int maxFields) throws MimeException {
    List<Field> fields = new ArrayList<>();
    int lineStart = 0;
    String name = null;
    StringBuilder value = new StringBuilder();
    while (lineStart < length) {
      int lf = Bytes.indexOf(buf, (byte) '\n', lineStart, length);
      int contentEnd = lf > lineStart && buf[lf - 1] == '\r' ? lf - 1 : lf;
      byte first = buf[lineStart];
      if (first == ' ' || first == '\t') {
        if (name == null) {
          throw error("continuation line before any header field", lineStart);
        }
        value.append(text(lineStart, contentEnd));
      } else {
        if (name != null) {
          fields.add(new Field(name, value.toString().strip()));
        }
        int colon = Bytes.indexOf(buf, (byte) ':', lineStart, contentEnd);
        if (colon < 0) {
          throw error("header line without ':'", lineStart);
        }
        name = headerName(lineStart, colon);
        if (fields.size() == maxFields) {
          throw MimeException.limitExceeded("MimeLimits.maxHeaderCount", maxFields,
              maxFields + 1L, baseOffset + lineStart, context + " > header \"" + name + "\"");
        }
        value.setLength(0);
        value.append(text(colon + 1, contentEnd));
      }
      lineStart = lf + 1;
    }
    if (name != null) {
      fields.add(new Field(name, value.toString().strip()));
    }
    return fields;
  }

  private String headerName(int start, int colon) throws MimeException {
    int end = colon;
    while (end > start && (buf[end - 1] == ' ' || buf[end - 1] == '\t')) {
      end--; // obsolete syntax (RFC 5322 4.5): white space before the colon
    }
    if (end == start) {
      throw error("empty header name", start);
    }
    for (int i = start; i < end; i++) {
      int c = buf[i] & 0xff;
      if (c <= ' ' || c >= 127) {
        throw error("invalid byte " + Bytes.describe(buf[i]) + " in header name", i);
      }
    }
    return new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
  }

  private String text(int start, int end) {
    return new String(buf, start, end - start, StandardCharsets.UTF_8);
  }

  private MimeException error(String reason, int relativeOffset) {
    return new MimeException(reason, baseOffset + relativeOffset, context);
  }
}
