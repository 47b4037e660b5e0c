package dev.ferry.mime.internal;

import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeHeaders.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one part's header section into fields, unfolding continuation lines (RFC 5322 section
 * 2.2.3). The section has been checked for line endings already; what is wrong inside a line is a
 * {@link MimeException} at the offending byte, or, when parsing leniently, a warning and the
 * line's field left out.
 */
public final class HeaderParser {
  private final byte[] buf;
  private final long baseOffset;
  private final String context;
  private final HeaderWarnings warnings; // null: strict

  // The field being read: its name, where its first line's value lies, and (only once a
  // continuation line came) its value unfolded so far. A field of one line, the usual one, is
  // made into its string once, from the bytes: through a builder it took four copies.
  private String name;
  private int valueStart;
  private int valueEnd;
  private StringBuilder folded; // null: one line so far

  private int contentTypeIndex = -1;
  private ValueOffsets contentTypeOffsets;

  /**
   * The fields, and where the first Content-Type field's value lies in the input (valid while
   * the parsed buffer is: an error in the value is placed before the buffer is reused).
   */
  public record Parsed(List<Field> fields, int contentTypeIndex,
      ValueOffsets contentTypeOffsets) {}

  private HeaderParser(byte[] buf, long baseOffset, String context, HeaderWarnings warnings) {
    this.buf = buf;
    this.baseOffset = baseOffset;
    this.context = context;
    this.warnings = warnings;
  }

  /**
   * Parses {@code buf[0, length)}, complete lines each ending in LF (CR before it optional),
   * whose first byte is at absolute {@code baseOffset}. With {@code warnings} (lenient), a
   * malformed line (a name with bytes outside printable ASCII, no ':', a continuation line
   * before any field) is reported there and its field left out, continuation lines included.
   *
   * @throws MimeException for a malformed line (strict), more than {@code maxFields} fields, or
   *     more warnings than the limit
   */
  public static Parsed parse(byte[] buf, int length, int maxFields, HeaderWarnings warnings,
      long baseOffset, String context) throws MimeException {
    HeaderParser p = new HeaderParser(buf, baseOffset, context, warnings);
    List<Field> fields = p.fields(length, maxFields);
    return new Parsed(fields, p.contentTypeIndex, p.contentTypeOffsets);
  }

  private List<Field> fields(int length, int maxFields) throws MimeException {
    List<Field> fields = new ArrayList<>();
    int lineStart = 0;
    boolean skipping = false; // lenient: the lines of a field left out
    while (lineStart < length) {
      int lf = Bytes.indexOf(buf, (byte) '\n', lineStart, length);
      int contentEnd = lf > lineStart && buf[lf - 1] == '\r' ? lf - 1 : lf;
      byte first = buf[lineStart];
      if (first == ' ' || first == '\t') {
        if (name != null) {
          if (folded == null) {
            folded = new StringBuilder(text(valueStart, valueEnd));
          }
          folded.append(text(lineStart, contentEnd));
        } else if (!skipping) {
          skip(error("continuation line before any header field", lineStart), "line left out");
          skipping = true;
        }
      } else {
        finishField(fields, lineStart);
        skipping = false;
        try {
          startField(lineStart, contentEnd, fields.size(), maxFields);
        } catch (MimeException e) {
          skip(e, "field left out");
          skipping = true;
        }
      }
      lineStart = lf + 1;
    }
    finishField(fields, length);
    return fields;
  }

  private void startField(int lineStart, int contentEnd, int count, int maxFields)
      throws MimeException {
    int colon = Bytes.indexOf(buf, (byte) ':', lineStart, contentEnd);
    if (colon < 0) {
      throw error("header line without ':'", lineStart);
    }
    String n = headerName(lineStart, colon);
    if (count == maxFields) {
      throw MimeException.limitExceeded("MimeLimits.maxHeaderCount", maxFields,
          maxFields + 1L, baseOffset + lineStart, context + " > header \"" + n + "\"");
    }
    name = n;
    valueStart = colon + 1;
    valueEnd = contentEnd;
    folded = null;
  }

  /** Adds the field being read, whose lines end before {@code end}. */
  private void finishField(List<Field> fields, int end) {
    if (name == null) {
      return;
    }
    if (contentTypeIndex < 0 && name.equalsIgnoreCase("Content-Type")) {
      contentTypeIndex = fields.size();
      contentTypeOffsets = new ValueOffsets(buf, valueStart, end, baseOffset);
    }
    String v = folded != null ? folded.toString().strip() : stripped(valueStart, valueEnd);
    fields.add(new Field(name, v));
    name = null;
  }

  /** The text of {@code buf[start, end)} as {@link String#strip} leaves it, made once. */
  private String stripped(int start, int end) {
    while (start < end && asciiSpace(buf[start])) {
      start++;
    }
    while (end > start && asciiSpace(buf[end - 1])) {
      end--;
    }
    return text(start, end).strip(); // for white space beyond ASCII; no copy without it
  }

  private static boolean asciiSpace(byte b) {
    return b >= 0 && Character.isWhitespace(b);
  }

  /** Throws {@code e} when strict or for a limit; else records it as a warning. */
  private void skip(MimeException e, String outcome) throws MimeException {
    if (warnings == null || e.isLimitExceeded()) {
      throw e;
    }
    warnings.add(e, outcome);
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
