package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MediaTypeTest {

  @Test
  void parsesWhatRealStacksSend() {
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
  void firstOfDuplicateParametersWins() {
    assertThat(MediaType.parse("a/b; x=1; X=2").parameter("x")).isEqualTo("1");
  }

  @Test
  void formatsWithQuotesOnlyWhereNeeded() {
    MediaType t = MediaType.of("Multipart", "Related").withParameter("boundary", "b-1")
        .withParameter("type", "application/xop+xml").withParameter("start", "<a b>");
    assertThat(t).hasToString("multipart/related; boundary=b-1; type=\"application/xop+xml\";"
        + " start=\"<a b>\"");
    assertThat(MediaType.parse(t.toString())).isEqualTo(t);
  }

  @Test
  void buildsFromPairsInOneStep() {
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
  void malformedValuesSayWhere() {
    assertThatThrownBy(() -> MediaType.parse("text")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected '/' at index 4");
    assertThatThrownBy(() -> MediaType.parse("a/b; x=\"open"))
        .hasMessageContaining("unterminated quoted string");
    assertThatThrownBy(() -> MediaType.parse("a/b; =1")).hasMessageContaining("parameter name");
  }
}
