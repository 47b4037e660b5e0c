package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MediaTypeTest {

  @Test
  void parsesWhatRealStacksSend() throws MimeException {
    // mtom-sample1: no space before action; swainput.bin: TAB before boundary; trailing ';'
    MediaType t = MediaType.parse("multipart/related; boundary=\"MIMEBoundaryurn:uuid:A3\";"
        + " type=\"application/xop+xml\"; start=\"<0.urn@apache.org>\";"
        + " start-info=\"application/soap+xml\"; charset=UTF-8;action=\"mtomSample\"");
    assertThat(t.is("multipart/related")).isTrue();
    assertThat(t.boundary()).isEqualTo("MIMEBoundaryurn:uuid:A3");
    assertThat(t.parameter("START")).isEqualTo("<0.urn@apache.org>");
    assertThat(t.parameter("action")).isEqualTo("mtomSample");
    assertThat(MediaType.parse("multipart/related; type=\"text/xml\";\tboundary=\"x\"")
        .boundary()).isEqualTo("x");
    assertThat(MediaType.parse("text/xml; charset=UTF-8;").parameters()).hasSize(1);
    assertThat(MediaType.parse("Multipart/Related;boundary=MIME_boundary;type=x").boundary())
        .isEqualTo("MIME_boundary");
    assertThat(MediaType.parse("text/plain; charset=\"a\\\"b\" (comment)").parameter("charset"))
        .isEqualTo("a\"b");
  }

  @Test
  void namesAreCheckedAndLowerCasedWhetherLiteralsOrNot() {
    // literals of well-known names skip the character check; equal strings made at run time
    // take it, with the same result
    String related = new String("Related");
    assertThat(MediaType.of("multipart", related, new String("Type"), "x"))
        .isEqualTo(MediaType.of("multipart", "related", "type", "x"))
        .hasToString("multipart/related; type=x");
    assertThatThrownBy(() -> MediaType.of("multipart", new String("rel ated")))
        .hasMessageContaining("not a MIME token");
    assertThatThrownBy(() -> MediaType.of("text", "xml", new String("start info"), "x"))
        .hasMessageContaining("not a MIME token");
  }

  @Test
  void firstOfDuplicateParametersWins() throws MimeException {
    assertThat(MediaType.parse("a/b; x=1; X=2").parameter("x")).isEqualTo("1");
    // past the few a linear scan handles, the names go into a set: same answer
    StringBuilder many = new StringBuilder("a/b");
    for (int i = 0; i < 20_000; i++) {
      many.append("; p").append(i % 500).append('=').append(i);
    }
    MediaType t = MediaType.parse(many.toString());
    assertThat(t.parameters()).hasSize(500);
    assertThat(t.parameter("p0")).isEqualTo("0");
    assertThat(t.parameter("P499")).isEqualTo("499");
    assertThat(t.parameters().keySet()).startsWith("p0", "p1", "p2");
  }

  @Test
  void equalityAndHashIgnoreParameterOrderButNotValues() throws MimeException {
    MediaType a = MediaType.parse("multipart/related; type=\"text/xml\"; boundary=b");
    MediaType b = MediaType.of("multipart", "related", "boundary", "b", "type", "text/xml");
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.hashCode()).isEqualTo(((("multipart".hashCode() * 31) + "related".hashCode())
        * 31) + a.parameters().hashCode()); // as a map's hash, whatever the order
    assertThat(a).isNotEqualTo(b.withParameter("type", "text/plain"))
        .isNotEqualTo(b.withParameter("charset", "utf-8"))
        .isNotEqualTo(MediaType.of("multipart", "mixed", "boundary", "b", "type", "text/xml"));
    assertThat(b.withParameter("TYPE", "x").parameters()).containsExactly(
        java.util.Map.entry("boundary", "b"), java.util.Map.entry("type", "x"));
  }

  @Test
  void formatsWithQuotesOnlyWhereNeeded() throws MimeException {
    MediaType t = MediaType.of("Multipart", "Related").withParameter("boundary", "b-1")
        .withParameter("type", "application/xop+xml").withParameter("start", "<a b>");
    assertThat(t).hasToString("multipart/related; boundary=b-1; type=\"application/xop+xml\";"
        + " start=\"<a b>\"");
    assertThat(MediaType.parse(t.toString())).isEqualTo(t);
  }

  @Test
  void buildsFromPairsInOneStep() throws MimeException {
    MediaType t = MediaType.of("Multipart", "Related", "Boundary", "b", "start", "<a \"b\\>",
        "boundary", "c");
    assertThat(t).isEqualTo(MediaType.of("multipart", "related").withParameter("boundary", "c")
        .withParameter("start", "<a \"b\\>"));
    assertThat(t).hasToString("multipart/related; boundary=c; start=\"<a \\\"b\\\\>\"");
    assertThat(MediaType.parse(t.toString())).isEqualTo(t);
    assertThatThrownBy(() -> MediaType.of("a", "b", "x")).isInstanceOf(
        IllegalArgumentException.class).hasMessageContaining("pairs");
    assertThatThrownBy(() -> MediaType.of("a", "b", "x y", "1")).hasMessageContaining("token");
  }

  @Test
  void malformedValuesAreMimeErrorsAtTheirOffsetWithinTheValue() {
    MimeException e = assertThrows(MimeException.class, () -> MediaType.parse("text"));
    assertThat(e.getMessage())
        .isEqualTo("expected '/' at byte 4 [within the Content-Type value \"text\"]");
    e = assertThrows(MimeException.class, () -> MediaType.parse("a/b; x=\"open"));
    assertThat(e.reason()).isEqualTo("unterminated quoted string");
    assertThat(e.byteOffset()).isEqualTo(7); // the opening quote
    assertThat(e.context()).endsWith(" > parameter \"x\"");
    e = assertThrows(MimeException.class, () -> MediaType.parse("a/b; =1"));
    assertThat(e.reason()).isEqualTo("expected a parameter name");
    assertThat(e.byteOffset()).isEqualTo(5);
    e = assertThrows(MimeException.class, () -> MediaType.parse("a/b; x=y (open"));
    assertThat(e.reason()).isEqualTo("unterminated comment");
    assertThat(e.byteOffset()).isEqualTo(9);
  }

  @Test
  void offsetsCountUtf8BytesAndQuotesEscapeControlCharacters() {
    // "é" is two bytes: the '=' missing after "y" would be character 13, byte 14
    MimeException e = assertThrows(MimeException.class,
        () -> MediaType.parse("a/b; x=\"é\"; y"));
    assertThat(e.reason()).isEqualTo("expected '='");
    assertThat(e.byteOffset()).isEqualTo(14);
    e = assertThrows(MimeException.class, () -> MediaType.parse("text\u001b[2J\u202e"));
    assertThat(e.getMessage()).contains("\"text\\x1B[2J\\u202E\"")
        .doesNotContain("\u001b").doesNotContain("\u202e");
    e = assertThrows(MimeException.class, () -> MediaType.parse("x".repeat(100)));
    assertThat(e.context()).endsWith("x\"...").hasSizeLessThan(80);
  }
}
