package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Writes LDIF (RFC 2849): content and change records, separated by blank lines, with lines
 * folded at {@link #DEFAULT_WRAP_COLUMN} columns (as OpenLDAP's tools write them) unless asked
 * otherwise. A value or DN is written as text when it is a SAFE-STRING of RFC 2849 and does not
 * end with a space; any other (non-ASCII, binary, starting with space, {@code :} or {@code <})
 * is written in base64, so that what {@link LdifReader} reads back is byte for byte the same.
 *
 * <pre>{@code
 * ByteArrayOutputStream out = new ByteArrayOutputStream();
 * try (LdifWriter w = LdifWriter.of(out)) {
 *   w.write(new LdifRecord.Entry("cn=x,dc=example", List.of(Attribute.of("cn", "x"))));
 * }
 * assert out.toString(UTF_8).equals("dn: cn=x,dc=example\ncn: x\n");
 * }</pre>
 *
 * <p>Not thread-safe. Output goes to the stream as written; closing the writer closes it.
 */
public final class LdifWriter implements Closeable, Flushable {
  /** Column at which lines are folded by default: {@value}. */
  public static final int DEFAULT_WRAP_COLUMN = 76;

  private final OutputStream out;
  private final int wrapColumn;
  private int column;
  private boolean first = true;

  private LdifWriter(OutputStream out, int wrapColumn) {
    this.out = Objects.requireNonNull(out, "out");
    this.wrapColumn = wrapColumn;
  }

  /** Returns a writer that folds lines at {@value #DEFAULT_WRAP_COLUMN} columns. */
  public static LdifWriter of(OutputStream out) {
    return new LdifWriter(out, DEFAULT_WRAP_COLUMN);
  }

  /**
   * Returns a writer that folds lines longer than {@code wrapColumn} bytes (at least 2), or never
   * if {@code wrapColumn} is 0.
   */
  public static LdifWriter of(OutputStream out, int wrapColumn) {
    if (wrapColumn != 0 && wrapColumn < 2) {
      throw new IllegalArgumentException("wrapColumn must be 0 or at least 2: " + wrapColumn);
    }
    return new LdifWriter(out, wrapColumn == 0 ? Integer.MAX_VALUE : wrapColumn);
  }

  /** Writes {@code version: 1}; call it first, if at all. */
  public LdifWriter writeVersion() throws IOException {
    separate();
    line("version", ByteString.encodeUtf8("1"));
    return this;
  }

  /** Writes a comment line (folded like any line). */
  public LdifWriter writeComment(String comment) throws IOException {
    if (comment.indexOf('\n') >= 0 || comment.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a comment is one line");
    }
    byte[] b = ("# " + comment).getBytes(StandardCharsets.UTF_8);
    folded(b, 0, b.length);
    endLine();
    return this;
  }

  /** Writes one record, preceded by a blank line unless it is the first thing written. */
  public LdifWriter write(LdifRecord record) throws IOException {
    separate();
    line("dn", ByteString.encodeUtf8(record.dn()));
    for (Control c : record.controls()) {
      control(c);
    }
    switch (record) {
      case LdifRecord.Entry e -> attributes(e.attributes());
      case LdifRecord.Add a -> {
        text("changetype", "add");
        attributes(a.attributes());
      }
      case LdifRecord.Delete d -> text("changetype", "delete");
      case LdifRecord.Modify m -> modify(m.modifications());
      case LdifRecord.ModifyDn m -> modifyDn(m);
    }
    return this;
  }

  /** Writes a search result entry as a content record. */
  public LdifWriter write(ProtocolOp.SearchResultEntry entry) throws IOException {
    return write(new LdifRecord.Entry(entry.objectName(), entry.attributes()));
  }

  private void separate() throws IOException {
    if (!first) {
      out.write('\n');
    }
    first = false;
  }

  private void attributes(List<Attribute> attributes) throws IOException {
    for (Attribute a : attributes) {
      for (int i = 0, n = a.size(); i < n; i++) {
        line(a.description(), a.value(i));
      }
    }
  }

  private void modify(List<Modification> modifications) throws IOException {
    text("changetype", "modify");
    for (Modification m : modifications) {
      Attribute a = m.attribute();
      text(m.type().name().toLowerCase(java.util.Locale.ROOT), a.description());
      attributes(List.of(a));
      text("-", null);
    }
  }

  private void modifyDn(LdifRecord.ModifyDn m) throws IOException {
    text("changetype", "moddn");
    line("newrdn", ByteString.encodeUtf8(m.newRdn()));
    text("deleteoldrdn", m.deleteOldRdn() ? "1" : "0");
    if (m.newSuperior() != null) {
      line("newsuperior", ByteString.encodeUtf8(m.newSuperior()));
    }
  }

  private void control(Control c) throws IOException {
    String head = c.oid() + (c.critical() ? " true" : "");
    if (c.value() == null) {
      text("control", head);
      return;
    }
    byte[] prefix = ("control: " + head).getBytes(StandardCharsets.US_ASCII);
    folded(prefix, 0, prefix.length);
    value(c.value());
  }

  /** Writes {@code name: text} for ASCII text known to be safe, or a bare {@code -}. */
  private void text(String name, String text) throws IOException {
    String s = text == null ? name : name + ": " + text;
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    folded(b, 0, b.length);
    endLine();
  }

  private void line(String name, ByteString value) throws IOException {
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    folded(b, 0, b.length);
    value(value);
  }

  /** Writes {@code : text} or {@code :: base64}, then ends the line. */
  private void value(ByteString value) throws IOException {
    if (isSafe(value)) {
      folded(new byte[] {':', ' '}, 0, value.size() == 0 ? 1 : 2);
      byte[] v = value.toByteArray();
      folded(v, 0, v.length);
    } else {
      folded(new byte[] {':', ':', ' '}, 0, 3);
      byte[] v = Base64.getEncoder().encode(value.toByteArray());
      folded(v, 0, v.length);
    }
    endLine();
  }

  /** RFC 2849 SAFE-STRING, and no trailing space (which readers may strip). */
  static boolean isSafe(ByteString v) {
    int n = v.size();
    if (n == 0) {
      return true;
    }
    int first = v.unsignedByteAt(0);
    if (first == ' ' || first == ':' || first == '<' || v.byteAt(n - 1) == ' ') {
      return false;
    }
    for (int i = 0; i < n; i++) {
      int b = v.unsignedByteAt(i);
      if (b == 0 || b == '\n' || b == '\r' || b > 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** Writes bytes of the current line, folding at the wrap column. */
  private void folded(byte[] b, int from, int to) throws IOException {
    int p = from;
    while (p < to) {
      if (column == wrapColumn) {
        out.write('\n');
        out.write(' ');
        column = 1;
      }
      int n = Math.min(to - p, wrapColumn - column);
      out.write(b, p, n);
      column += n;
      p += n;
    }
  }

  private void endLine() throws IOException {
    out.write('\n');
    column = 0;
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
