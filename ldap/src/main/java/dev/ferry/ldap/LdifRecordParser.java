package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the logical lines of one LDIF record into an {@link LdifRecord} (RFC 2849, with the
 * {@code increment:} spec of RFC 4525).
 *
 * <pre>
 * record       = [version-spec] dn-spec *control ( changerecord / *attrval-spec )
 * version-spec = "version:" FILL "1"                       ; first record of a file only
 * dn-spec      = "dn:" value-spec
 * control      = "control:" FILL oid [SP ("true" / "false")] [value-spec]
 * changerecord = "changetype:" FILL ( "add" 1*attrval-spec / "delete"
 *              / "modify" *( ("add:" / "delete:" / "replace:" / "increment:") FILL description
 *                            *attrval-spec "-" )
 *              / ("modrdn" / "moddn") "newrdn:" value-spec "deleteoldrdn:" FILL ("0" / "1")
 *                [ "newsuperior:" value-spec ] )
 * attrval-spec = description value-spec
 * value-spec   = ":" FILL text / "::" FILL base64 / ":&lt;" FILL url
 * </pre>
 *
 * <p>The last {@code -} of a modify record may be left out, and a content record may have no
 * attributes (ldapsearch writes such records when asked for none), as OpenLDAP's tools allow.
 */
final class LdifRecordParser {
  private static final int PLAIN = 0;
  private static final int BASE64 = 1;
  private static final int URL = 2;
  /** What each line is counted as besides its bytes, towards {@code maxRecordBytes}. */
  static final int LINE_OVERHEAD_BYTES = 64;

  private final LdifLimits limits;
  private final Path urlRoot; // null: URL values are refused
  private final List<Line> lines = new ArrayList<>();
  private long recordBytes;
  private boolean versionAllowed = true;
  private int next; // index of the next line to parse

  /** One logical line: its bytes, the number of its first physical line and its offset. */
  private record Line(ByteString bytes, long number, long offset) {}

  /** A line cut at its colon: the description, how the value is given, and the value's text. */
  private record Spec(String name, int kind, ByteString raw, Line line) {}

  LdifRecordParser(LdifLimits limits, Path urlRoot) {
    this.limits = limits;
    this.urlRoot = urlRoot;
  }

  /** Adds a logical line of the current record (copied). */
  void add(byte[] a, int length, long number, long offset) throws LdifException {
    // A line costs its bytes and the objects that hold them: counting those keeps a record of
    // many short lines within the limit too.
    recordBytes += length + LINE_OVERHEAD_BYTES;
    if (recordBytes > limits.maxRecordBytes()) {
      throw LdifException.limitExceeded("LdifLimits.maxRecordBytes", limits.maxRecordBytes(),
          recordBytes, number, offset);
    }
    lines.add(new Line(ByteString.copyOf(a, 0, length), number, offset));
  }

  /** Parses the lines added since the last call; null if there were none (or only a version). */
  LdifRecord finish() throws IOException {
    if (lines.isEmpty()) {
      return null;
    }
    try {
      next = 0;
      if (versionAllowed) {
        versionAllowed = false;
        version();
        if (next == lines.size()) {
          return null;
        }
      }
      return record();
    } finally {
      lines.clear();
      recordBytes = 0;
    }
  }

  private void version() throws LdifException {
    Spec s = spec(lines.get(0));
    if (!s.name.equalsIgnoreCase("version")) {
      return;
    }
    String v = text(s);
    if (!v.equals("1")) {
      throw error(s.line, "unsupported LDIF version \"" + v + "\" (expected: 1)", null);
    }
    next = 1;
  }

  private LdifRecord record() throws IOException {
    Spec first = spec(lines.get(next++));
    if (!first.name.equalsIgnoreCase("dn")) {
      throw error(first.line, "record starts with \"" + first.name + ":\" (expected: dn:)",
          null);
    }
    String dn = text(first);
    if (next == lines.size()) {
      return new LdifRecord.Entry(dn, List.of()); // ldapsearch writes these for "1.1"
    }
    List<Control> controls = new ArrayList<>();
    Spec s = nextSpec(first, dn);
    while (s.name.equalsIgnoreCase("control")) {
      controls.add(control(s));
      s = nextSpec(s, dn);
    }
    if (!s.name.equalsIgnoreCase("changetype")) {
      if (!controls.isEmpty()) {
        throw error(s.line, "control without changetype (expected: changetype:)", dn);
      }
      next--;
      return new LdifRecord.Entry(dn, attributes(dn));
    }
    return change(s, dn, controls);
  }

  private LdifRecord change(Spec s, String dn, List<Control> controls) throws IOException {
    String type = text(s);
    switch (type.toLowerCase(Locale.ROOT)) {
      case "add" -> {
        if (next == lines.size()) {
          throw error(s.line, "add record without attributes", dn);
        }
        return new LdifRecord.Add(dn, attributes(dn), controls);
      }
      case "delete" -> {
        requireEnd(dn);
        return new LdifRecord.Delete(dn, controls);
      }
      case "modify" -> {
        return new LdifRecord.Modify(dn, modifications(dn), controls);
      }
      case "modrdn", "moddn" -> {
        return modifyDn(dn, controls);
      }
      default -> throw error(s.line, "unknown changetype \"" + type
          + "\" (expected: add, delete, modify, modrdn or moddn)", dn);
    }
  }

  private Control control(Spec s) throws LdifException {
    if (s.kind != PLAIN) {
      throw error(s.line, "control type must be plain text", null);
    }
    String text = text(s);
    int colon = text.indexOf(':');
    String head = colon < 0 ? text : text.substring(0, colon);
    String[] words = head.trim().split(" +");
    if (words.length > 2 || words[0].isEmpty() || !isOid(words[0])) {
      throw error(s.line, "control \"" + head.trim() + "\" (expected: oid [true|false])", null);
    }
    boolean critical = false;
    if (words.length == 2) {
      critical = switch (words[1]) {
        case "true" -> true;
        case "false" -> false;
        default -> throw error(s.line, "control criticality \"" + words[1]
            + "\" (expected: true or false)", null);
      };
    }
    ByteString value = colon < 0 ? null : controlValue(s, colon);
    return new Control(words[0], critical, value);
  }

  private ByteString controlValue(Spec s, int colon) throws LdifException {
    // The OID and criticality are ASCII, so the colon's index in the text is its byte index.
    return value(valueSpec("control", s.raw, colon, s.line));
  }

  private List<Attribute> attributes(String dn) throws IOException {
    Map<String, List<ByteString>> values = new LinkedHashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    while (next < lines.size()) {
      Spec s = spec(lines.get(next++));
      checkDescription(s, dn);
      String key = s.name.toLowerCase(Locale.ROOT);
      names.putIfAbsent(key, s.name);
      values.computeIfAbsent(key, k -> new ArrayList<>()).add(value(s));
    }
    List<Attribute> out = new ArrayList<>(values.size());
    for (Map.Entry<String, List<ByteString>> e : values.entrySet()) {
      out.add(new Attribute(names.get(e.getKey()), e.getValue()));
    }
    return out;
  }

  private List<Modification> modifications(String dn) throws IOException {
    List<Modification> mods = new ArrayList<>();
    while (next < lines.size()) {
      Spec head = spec(lines.get(next++));
      Modification.Type type = switch (head.name.toLowerCase(Locale.ROOT)) {
        case "add" -> Modification.Type.ADD;
        case "delete" -> Modification.Type.DELETE;
        case "replace" -> Modification.Type.REPLACE;
        case "increment" -> Modification.Type.INCREMENT;
        default -> throw error(head.line, "\"" + head.name + ":\" in a modify record"
            + " (expected: add:, delete:, replace: or increment:)", dn);
      };
      String description = text(head);
      mods.add(new Modification(type, new Attribute(description, modValues(description, dn))));
    }
    return mods;
  }

  private List<ByteString> modValues(String description, String dn) throws IOException {
    List<ByteString> values = new ArrayList<>();
    while (next < lines.size()) {
      Line line = lines.get(next++);
      if (isDash(line.bytes)) {
        return values;
      }
      Spec s = spec(line);
      if (!s.name.equalsIgnoreCase(description)) {
        throw error(line, "attribute \"" + s.name + "\" in the spec of \"" + description
            + "\" (expected: " + description + " or -)", dn);
      }
      values.add(value(s));
    }
    return values; // the record ended without "-": accepted, as OpenLDAP does
  }

  private static boolean isDash(ByteString b) {
    int n = b.size();
    while (n > 1 && b.byteAt(n - 1) == ' ') {
      n--;
    }
    return n == 1 && b.byteAt(0) == '-';
  }

  private LdifRecord modifyDn(String dn, List<Control> controls) throws IOException {
    Spec rdn = requireSpec("newrdn", dn);
    String newRdn = text(rdn);
    Spec del = requireSpec("deleteoldrdn", dn);
    String flag = text(del);
    if (!flag.equals("0") && !flag.equals("1")) {
      throw error(del.line, "deleteoldrdn \"" + flag + "\" (expected: 0 or 1)", dn);
    }
    String newSuperior = null;
    if (next < lines.size()) {
      newSuperior = text(requireSpec("newsuperior", dn));
    }
    requireEnd(dn);
    return new LdifRecord.ModifyDn(dn, newRdn, flag.equals("1"), newSuperior, controls);
  }

  private Spec requireSpec(String name, String dn) throws LdifException {
    if (next == lines.size()) {
      Line last = lines.get(lines.size() - 1);
      throw error(last, "record ends before \"" + name + ":\"", dn);
    }
    Spec s = spec(lines.get(next++));
    if (!s.name.equalsIgnoreCase(name)) {
      throw error(s.line, "\"" + s.name + ":\" (expected: " + name + ":)", dn);
    }
    return s;
  }

  private void requireEnd(String dn) throws LdifException {
    if (next < lines.size()) {
      throw error(lines.get(next), "line after the end of the change", dn);
    }
  }

  private Spec nextSpec(Spec previous, String dn) throws LdifException {
    if (next == lines.size()) {
      throw error(previous.line, "controls without changetype", dn);
    }
    return spec(lines.get(next++));
  }

  // --- lines and values ------------------------------------------------------------------------

  /** Cuts {@code line} at its first colon. */
  private static Spec spec(Line line) throws LdifException {
    ByteString b = line.bytes;
    int colon = b.indexOf((byte) ':', 0);
    if (colon <= 0) {
      throw error(line, colon == 0 ? "line starts with ':' (expected: a name)"
          : "line without ':' (expected: name: value)", null);
    }
    return valueSpec(ascii(b, colon), b, colon, line);
  }

  /** Reads the value-spec that follows the colon at {@code colon} of {@code b}. */
  private static Spec valueSpec(String name, ByteString b, int colon, Line at) {
    int p = colon + 1;
    int kind = PLAIN;
    if (p < b.size() && b.byteAt(p) == ':') {
      kind = BASE64;
      p++;
    } else if (p < b.size() && b.byteAt(p) == '<') {
      kind = URL;
      p++;
    }
    while (p < b.size() && b.byteAt(p) == ' ') {
      p++;
    }
    return new Spec(name, kind, b.subSequence(p), at);
  }

  private static String ascii(ByteString b, int end) {
    char[] c = new char[end];
    for (int i = 0; i < end; i++) {
      c[i] = (char) b.unsignedByteAt(i);
    }
    return new String(c);
  }

  private void checkDescription(Spec s, String dn) throws LdifException {
    String n = s.name;
    boolean ok = Character.isLetterOrDigit(n.charAt(0)) && n.charAt(0) < 0x80;
    for (int i = 1; ok && i < n.length(); i++) {
      char c = n.charAt(i);
      ok = c < 0x80 && (Character.isLetterOrDigit(c) || c == '-' || c == ';' || c == '.');
    }
    if (!ok) {
      throw error(s.line, "attribute description \"" + n
          + "\" (expected: letters, digits, '-', '.' and ';' options)", dn);
    }
  }

  private ByteString value(Spec s) throws LdifException {
    return switch (s.kind) {
      case PLAIN -> s.raw;
      case BASE64 -> base64(s);
      default -> url(s);
    };
  }

  private String text(Spec s) throws LdifException {
    return utf8(value(s), s);
  }

  private ByteString base64(Spec s) throws LdifException {
    String text = s.raw.string(StandardCharsets.ISO_8859_1).stripTrailing();
    try {
      return ByteString.of(Base64.getDecoder().decode(text));
    } catch (IllegalArgumentException e) {
      throw new LdifException("invalid base64 value: " + e.getMessage(), s.line.number,
          s.line.offset, "attribute \"" + s.name + "\"", e);
    }
  }

  private ByteString url(Spec s) throws LdifException {
    String text = utf8(s.raw, s).strip();
    if (urlRoot == null) {
      throw error(s.line, "URL value \"" + text + "\" refused: this reader reads no URLs"
          + " (LdifReader.Builder.fileUrlRoot)", "attribute \"" + s.name + "\"");
    }
    Path file = fileUnderRoot(s, text);
    try {
      long size = Files.size(file);
      if (size > limits.maxLineBytes()) {
        throw LdifException.limitExceeded("LdifLimits.maxLineBytes", limits.maxLineBytes(),
            size, s.line.number, s.line.offset);
      }
      return ByteString.of(Files.readAllBytes(file));
    } catch (IOException e) {
      if (e instanceof LdifException le) {
        throw le;
      }
      throw new LdifException("cannot read URL value \"" + text + "\": " + e, s.line.number,
          s.line.offset, "attribute \"" + s.name + "\"", e);
    }
  }

  private Path fileUnderRoot(Spec s, String text) throws LdifException {
    try {
      URI uri = new URI(text);
      String host = uri.getHost();
      if (!"file".equalsIgnoreCase(uri.getScheme()) || uri.getPath() == null
          || (host != null && !host.isEmpty() && !host.equals("localhost"))) {
        throw error(s.line, "URL value \"" + text + "\" (expected: a local file: URL)",
            "attribute \"" + s.name + "\"");
      }
      Path file = Path.of(uri.getPath()).toRealPath();
      if (!file.startsWith(urlRoot.toRealPath())) {
        throw error(s.line, "URL value \"" + text + "\" names a file outside " + urlRoot,
            "attribute \"" + s.name + "\"");
      }
      return file;
    } catch (URISyntaxException | IOException e) {
      if (e instanceof LdifException le) {
        throw le;
      }
      throw new LdifException("bad URL value \"" + text + "\": " + e.getMessage(),
          s.line.number, s.line.offset, "attribute \"" + s.name + "\"", e);
    }
  }

  private static String utf8(ByteString b, Spec s) throws LdifException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      throw new LdifException("\"" + s.name + "\" is not UTF-8 text", s.line.number,
          s.line.offset, null, e);
    }
  }

  private static boolean isOid(String s) {
    if (s.isEmpty() || !Character.isDigit(s.charAt(0)) || s.endsWith(".")) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c == '.' && s.charAt(i - 1) != '.')) {
        return false;
      }
    }
    return true;
  }

  private static LdifException error(Line line, String reason, String dn) {
    return new LdifException(reason, line.number, line.offset,
        dn == null ? null : "record \"" + dn + "\"");
  }
}
