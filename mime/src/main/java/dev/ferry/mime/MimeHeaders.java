package dev.ferry.mime;

import dev.ferry.mime.internal.HeaderParser;
import dev.ferry.mime.internal.HeaderWarnings;
import java.io.IOException;
import java.io.InputStream;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The header fields of one MIME part, in order, with case-insensitive look-up.
 *
 * <pre>{@code
 * MimeHeaders h = MimeHeaders.builder()
 *     .add("Content-Type", "application/octet-stream")
 *     .add("Content-ID", "<1.abc@ferry.dev>")
 *     .build();
 * assert h.get("content-id").equals("<1.abc@ferry.dev>");
 * assert h.contentId().equals("1.abc@ferry.dev");
 * }</pre>
 *
 * <p>Headers a parser read have their Content-Type parsed as they were read, so a malformed one
 * fails the message there, with its offset, as every other MIME error does; under lenient header
 * parsing what was read past is in {@link #warnings()}.
 */
public final class MimeHeaders {
  private static final byte UNKNOWN = 0;
  private static final byte ASCII = 1;
  private static final byte NOT_ASCII = 2;

  /** Stands for a Content-Type not parsed yet (its fields are final: safe to race on). */
  private static final MediaType NOT_PARSED = MediaType.of("not", "parsed");

  /** No headers at all. */
  public static final MimeHeaders EMPTY = new MimeHeaders(new FieldList(new Field[0], 0), ASCII,
      null, List.of());

  private final List<Field> fields; // a FieldList when built; the parser's list, wrapped
  private byte ascii; // whether every name and value is ASCII; a writer copies those in place
  private MediaType contentType; // null if none; NOT_PARSED until asked for, in built headers
  private final List<MimeWarning> warnings;

  private MimeHeaders(List<Field> fields, byte ascii, MediaType contentType,
      List<MimeWarning> warnings) {
    this.fields = fields;
    this.ascii = ascii;
    this.contentType = contentType;
    this.warnings = warnings;
  }

  /** One header field: its name as written, and its unfolded value without surrounding space. */
  public record Field(String name, String value) {}

  public static Builder builder() {
    return new Builder();
  }

  /** Returns the fields in the order they were written. */
  public List<Field> fields() {
    return fields;
  }

  /** Returns the number of fields. */
  public int size() {
    return fields.size();
  }

  /** The field at {@code index}, for the writer's loops (no iterator). */
  Field field(int index) {
    return fields.get(index);
  }

  /**
   * The fields as an unmodifiable list over an array the builder handed over (an ArrayList
   * copied into an immutable list was a third of building a part's headers).
   */
  private static final class FieldList extends AbstractList<Field> implements RandomAccess {
    private final Field[] items;
    private final int size;

    FieldList(Field[] items, int size) {
      this.items = items;
      this.size = size;
    }

    @Override
    public Field get(int index) {
      Objects.checkIndex(index, size);
      return items[index];
    }

    @Override
    public int size() {
      return size;
    }
  }

  /** Returns the value of the first field called {@code name} (any case), or null. */
  public String get(String name) {
    for (Field f : fields) {
      if (f.name.equalsIgnoreCase(name)) {
        return f.value;
      }
    }
    return null;
  }

  /** Returns the values of every field called {@code name}, in order. */
  public List<String> getAll(String name) {
    List<String> values = new ArrayList<>(1);
    for (Field f : fields) {
      if (f.name.equalsIgnoreCase(name)) {
        values.add(f.value);
      }
    }
    return values;
  }

  /**
   * Returns the parsed Content-Type (of the first such field), or null if there is none (RFC
   * 2045 then implies {@code text/plain}; RFC 2387 parts without one are usually
   * {@code application/octet-stream}), or if lenient parsing ignored a malformed one. Headers a
   * parser read were checked as they were read; built headers are parsed on the first call.
   *
   * @throws IllegalArgumentException if these headers were built (not read) with a malformed
   *     Content-Type: the program's own value
   */
  public MediaType contentType() {
    MediaType t = contentType;
    if (t == NOT_PARSED) {
      String v = get("Content-Type");
      try {
        t = v == null ? null : MediaType.parse(v);
      } catch (MimeException e) {
        throw new IllegalArgumentException("malformed Content-Type: " + e.getMessage(), e);
      }
      contentType = t;
    }
    return t;
  }

  /**
   * Returns what lenient header parsing read past in this header section, in order: a field
   * left out (a name with bytes outside printable ASCII, a line without ':'), a Content-Type
   * parameter skipped or kept as written, a Content-Type ignored. Empty for strict parsing,
   * which fails on the same input, and for built headers.
   *
   * @see MultipartParser.Builder#lenientHeaders(boolean)
   */
  public List<MimeWarning> warnings() {
    return warnings;
  }

  /** Returns the Content-ID without angle brackets, or null. */
  public String contentId() {
    String v = get("Content-ID");
    return v == null ? null : ContentIds.strip(v);
  }

  /** Returns the Content-Transfer-Encoding, lower-case, or null if absent. */
  public String contentTransferEncoding() {
    String v = get("Content-Transfer-Encoding");
    return v == null ? null : v.trim().toLowerCase(Locale.ROOT);
  }

  /**
   * Returns true if every name and value is ASCII, so a writer can copy them byte for byte;
   * known from the builder, found once for parsed headers.
   */
  boolean isAscii() {
    if (ascii == UNKNOWN) {
      boolean all = true;
      for (Field f : fields) {
        all &= isAscii(f.name) && isAscii(f.value);
      }
      ascii = all ? ASCII : NOT_ASCII;
    }
    return ascii == ASCII;
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return fields.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MimeHeaders h && h.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  /** Builds {@link MimeHeaders}; checks names and values so that the writer emits valid MIME. */
  public static final class Builder {
    private Field[] items = new Field[4];
    private int size;
    private boolean handedOver; // items belong to built headers: copy before a change
    private boolean ascii = true; // names always are (checkName); false may be stale after remove

    private Builder() {}

    /**
     * Adds a field.
     *
     * @throws IllegalArgumentException if the name is not a header name or the value holds CR or
     *     LF (header injection)
     */
    public Builder add(String name, String value) {
      checkName(name);
      ascii &= checkValue(name, value);
      append(new Field(name, stripped(value)));
      return this;
    }

    private void append(Field f) {
      if (handedOver || size == items.length) {
        items = Arrays.copyOf(items, Math.max(4, size == items.length ? 2 * size : items.length));
        handedOver = false;
      }
      items[size++] = f;
    }

    /** Adds every field of {@code headers}. */
    public Builder addAll(MimeHeaders headers) {
      ascii &= headers.isAscii();
      for (Field f : headers.fields) {
        append(f);
      }
      return this;
    }

    /** Removes every field called {@code name} (any case). */
    public Builder remove(String name) {
      Field[] kept = new Field[Math.max(4, items.length)];
      int n = 0;
      for (int i = 0; i < size; i++) {
        if (!items[i].name.equalsIgnoreCase(name)) {
          kept[n++] = items[i];
        }
      }
      items = kept;
      size = n;
      handedOver = false;
      return this;
    }

    /** Replaces every field called {@code name} with one field of {@code value}. */
    public Builder set(String name, String value) {
      return remove(name).add(name, value);
    }

    public MimeHeaders build() {
      if (size == 0) {
        return EMPTY;
      }
      handedOver = true;
      return new MimeHeaders(new FieldList(items, size), ascii ? ASCII : NOT_ASCII, NOT_PARSED,
          List.of());
    }

    private static void checkName(String name) {
      if (isWellKnown(name)) {
        return;
      }
      if (name.isEmpty()) {
        throw new IllegalArgumentException("empty header name");
      }
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c <= ' ' || c >= 127 || c == ':') {
          throw new IllegalArgumentException("not a header name: \"" + name + "\"");
        }
      }
    }
  }

  /**
   * {@code value.strip()}, without its two scans where the value neither starts nor ends with a
   * space or control character (nothing else there is whitespace).
   */
  static String stripped(String value) {
    int n = value.length();
    return n > 0 && isPlain(value.charAt(0)) && isPlain(value.charAt(n - 1)) ? value
        : value.strip();
  }

  private static boolean isPlain(char c) {
    return c > ' ' && c < 0x7f;
  }

  /**
   * Checks a header value for line breaks (header injection); returns whether it is ASCII.
   *
   * @throws IllegalArgumentException if the value holds CR or LF
   */
  static boolean checkValue(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      // one unsigned compare per character for the usual printable ASCII; a control
      // character (CR, LF, TAB...) or a non-ASCII one is looked at more closely
      if ((char) (value.charAt(i) - 0x0e) >= 0x80 - 0x0e) {
        return checkValueFrom(name, value, i);
      }
    }
    return true;
  }

  /** The slow part of {@link #checkValue}, from the first unusual character on. */
  private static boolean checkValueFrom(String name, String value, int from) {
    boolean ascii = true;
    for (int i = from; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\r' || c == '\n') {
        throw new IllegalArgumentException("header value of " + name
            + " contains a line break at index " + i);
      }
      ascii &= c < 0x80;
    }
    return ascii;
  }

  /**
   * True if {@code name} is the very string of one of the names a MIME writer uses most (string
   * literals are one object each), so it is known to be valid without a look at every character.
   */
  private static boolean isWellKnown(String name) {
    return name == "Content-Type" || name == "Content-ID" // identity is the point here
        || name == "Content-Transfer-Encoding" || name == "Content-Length"
        || name == "Content-Disposition" || name == "Content-Location";
  }

  /**
   * Reads a header section (for example a message's own headers, before its multipart body)
   * from {@code in} up to and including the empty line that ends it; the stream is left at the
   * first body byte. Reads byte by byte: meant for a header section, not for bodies.
   *
   * @throws MimeException if the section is malformed, over {@code maxHeaderBytes} or
   *     {@code maxHeaderCount}, or the stream ends inside it
   */
  public static MimeHeaders readFrom(InputStream in, MimeLimits limits, boolean lenient)
      throws IOException {
    return readFrom(in, limits, lenient, false);
  }

  /**
   * As {@link #readFrom(InputStream, MimeLimits, boolean)}, and with {@code lenientHeaders}
   * reads past malformed fields and parameters as {@link MultipartParser.Builder#lenientHeaders}
   * says, reporting them in {@link #warnings()}.
   *
   * @throws MimeException as the three-argument form, and for
   *     {@code MimeLimits.maxHeaderWarnings}
   */
  public static MimeHeaders readFrom(InputStream in, MimeLimits limits, boolean lenient,
      boolean lenientHeaders) throws IOException {
    byte[] buf = new byte[256];
    int n = 0;
    int lineStart = 0;
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new MimeException("stream ended inside the header section", n, "headers");
      }
      if (n == limits.maxHeaderBytes()) {
        throw MimeException.limitExceeded("MimeLimits.maxHeaderBytes", limits.maxHeaderBytes(),
            n + 1L, n, "headers");
      }
      if (n == buf.length) {
        buf = java.util.Arrays.copyOf(buf, Math.min(n * 2, limits.maxHeaderBytes()));
      }
      buf[n++] = (byte) c;
      if (c != '\n') {
        continue;
      }
      boolean crlf = n - lineStart >= 2 && buf[n - 2] == '\r';
      if (!crlf && !lenient) {
        throw new MimeException("bare LF in header section (expected: CRLF; lenient line ends"
            + " accept it)", n - 1, "headers");
      }
      if (n - lineStart == (crlf ? 2 : 1)) {
        return parse(buf, lineStart, limits, lenientHeaders, 0, "headers");
      }
      lineStart = n;
    }
  }

  /**
   * Parses {@code buf[0, length)}, whose first byte is at absolute {@code baseOffset}, and the
   * Content-Type in it; {@code lenient} reads past malformed fields and parameters, reporting
   * them in {@link #warnings()}.
   */
  static MimeHeaders parse(byte[] buf, int length, MimeLimits limits, boolean lenient,
      long baseOffset, String context) throws MimeException {
    HeaderWarnings warnings = lenient ? new HeaderWarnings(limits.maxHeaderWarnings()) : null;
    HeaderParser.Parsed p = HeaderParser.parse(buf, length, limits.maxHeaderCount(), warnings,
        baseOffset, context);
    if (p.fields().isEmpty() && (warnings == null || warnings.list().isEmpty())) {
      return EMPTY;
    }
    MediaType type = null;
    if (p.contentTypeIndex() >= 0) {
      type = MediaType.parse(p.fields().get(p.contentTypeIndex()).value(),
          p.contentTypeOffsets(), context + " > header \"Content-Type\"", warnings);
    }
    return new MimeHeaders(Collections.unmodifiableList(p.fields()), UNKNOWN, type,
        warnings == null ? List.of() : warnings.list());
  }
}
