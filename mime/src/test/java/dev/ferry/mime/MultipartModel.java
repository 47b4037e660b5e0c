package dev.ferry.mime;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A multipart structure as a sender might write it, for the differential test: nesting,
 * preambles and epilogues, transport padding, folded headers, empty bodies in all three forms,
 * CRLF or bare LF throughout, and (for lenient header parsing) malformed fields. {@link #write}
 * gives its bytes; each multipart gets a boundary no other boundary starts with.
 */
final class MultipartModel {
  private MultipartModel() {}

  /** How a part without body bytes is written. */
  enum EmptyForm {
    /** Headers, the empty line, no body, then the delimiter's own line break. */
    LINE_BREAK,
    /** Headers, the empty line, the delimiter at once: the empty line's break is its. */
    BLANK_LINE,
    /** Headers, the delimiter at once: the last header line's break is its. */
    NO_BLANK_LINE
  }

  /** A header field as written: {@code name:} then {@code space}, the value folded at a space. */
  record Header(String name, String space, String value, boolean fold) {}

  sealed interface Node permits Leaf, Multi {
    List<Header> headers();
  }

  /** A part with a body; {@code form} matters only when the body is empty. */
  record Leaf(List<Header> headers, byte[] body, EmptyForm form) implements Node {
    @Override
    public String toString() { // the body as text, for jqwik's report of a shrunk sample
      return "Leaf[headers=" + headers + ", body=" + PeerRendering.bytes(body) + ", form="
          + form + "]";
    }
  }

  /**
   * A multipart part (or the message itself): its own headers besides its Content-Type, the
   * boundary's suffix (a unique prefix goes in front), the padding after each delimiter and
   * after the closing one, a preamble and an epilogue (text without dashes).
   */
  record Multi(List<Header> headers, String subtype, String boundarySuffix, boolean quote,
      String preamble, List<Node> parts, List<String> paddings, String epilogue)
      implements Node {}

  /** A message: its Content-Type (given apart, as HTTP does) and its multipart body. */
  record Message(String contentType, byte[] body, List<String> boundaries, boolean bareLf) {}

  /** Writes {@code root} with CRLF or bare LF line breaks. */
  static Message write(Multi root, boolean bareLf) {
    Writer w = new Writer(bareLf ? "\n" : "\r\n");
    String boundary = w.boundary(root);
    w.multipart(root, boundary);
    return new Message(contentType(root, boundary), w.out.toByteArray(), w.boundaries, bareLf);
  }

  static String contentType(Multi m, String boundary) {
    return "multipart/" + m.subtype() + "; boundary="
        + (m.quote() || !MediaType.isToken(boundary) ? "\"" + boundary + "\"" : boundary);
  }

  private static final class Writer {
    final String lineBreak;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final List<String> boundaries = new ArrayList<>();

    Writer(String lineBreak) {
      this.lineBreak = lineBreak;
    }

    /** A boundary that no other starts with: its index and a dot come first. */
    String boundary(Multi m) {
      String b = boundaries.size() + "." + m.boundarySuffix();
      boundaries.add(b);
      return b;
    }

    void multipart(Multi m, String boundary) {
      if (!m.preamble().isEmpty()) {
        text(m.preamble() + lineBreak);
      }
      for (int i = 0; i < m.parts().size(); i++) {
        text("--" + boundary + m.paddings().get(i) + lineBreak);
        part(m.parts().get(i));
      }
      text("--" + boundary + "--" + m.paddings().get(m.parts().size()));
      if (!m.epilogue().isEmpty()) {
        text(lineBreak + m.epilogue());
      }
    }

    /** A part and the line break of the delimiter after it, unless the part's form takes it. */
    void part(Node node) {
      for (Header h : node.headers()) {
        header(h);
      }
      if (node instanceof Multi m) {
        String boundary = boundary(m);
        header(new Header("Content-Type", " ", contentType(m, boundary), false));
        text(lineBreak);
        multipart(m, boundary);
        text(lineBreak);
        return;
      }
      Leaf leaf = (Leaf) node;
      EmptyForm form = leaf.body().length == 0 ? leaf.form() : EmptyForm.LINE_BREAK;
      if (form != EmptyForm.NO_BLANK_LINE) {
        text(lineBreak);
      }
      out.writeBytes(leaf.body());
      if (form == EmptyForm.LINE_BREAK) {
        text(lineBreak);
      }
    }

    void header(Header h) {
      String value = h.value();
      int space = h.fold() ? value.indexOf(' ', 1) : -1;
      if (space > 0) { // folding puts a line break before white space, which stays
        value = value.substring(0, space) + lineBreak + value.substring(space);
      }
      text(h.name() + ":" + h.space() + value + lineBreak);
    }

    void text(String s) {
      out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
  }
}
