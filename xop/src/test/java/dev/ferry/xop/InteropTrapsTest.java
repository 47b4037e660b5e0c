package dev.ferry.xop;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;

/** The interop traps real stacks fell into, one test each. */
class InteropTrapsTest {
  static final XopCodec XOP = XopCodec.create();
  static final String NS = "xmlns:xop=\"http://www.w3.org/2004/08/xop/include\"";
  static final String ROOT_TYPE = "application/xop+xml; charset=UTF-8; type=\"text/xml\"";

  /** A package: root with one include of {@code href}, then attachment {@code id} = "hello". */
  static String message(String rootHeaders, String href, String attachmentId) {
    return "--b\r\n" + rootHeaders + "\r\n\r\n<r><v><xop:Include " + NS + " href=\"" + href
        + "\"/></v></r>\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-ID: "
        + attachmentId + "\r\n\r\nhello\r\n--b--\r\n";
  }

  static String mtomType(String start) {
    return "multipart/related; boundary=b; type=\"application/xop+xml\""
        + (start == null ? "" : "; start=\"" + start + "\"") + "; start-info=\"text/xml\"";
  }

  static List<String> texts(XopCodec codec, String type, String msg) throws Exception {
    try (XopPackage pkg = XopTestSupport.read(codec, type, msg)) {
      return XopTestSupport.texts(pkg.newXmlReader());
    }
  }

  static final String HELLO = "v=aGVsbG8=";

  @Test
  void percentEncodedHrefsMatchTheRawContentId() throws Exception {
    String root = "Content-Type: " + ROOT_TYPE + "\r\nContent-ID: <root@x>";
    assertThat(texts(XOP, mtomType("<root@x>"), message(root, "cid:a%40b.c", "<a@b.c>")))
        .containsExactly(HELLO);
    // a well-known .NET stack encodes ':' and '/' too
    assertThat(texts(XOP, mtomType("<root@x>"),
        message(root, "cid:http%3A%2F%2Ftempuri.org%2F1%2F6340", "<http://tempuri.org/1/6340>")))
        .containsExactly(HELLO);
    // and some put the brackets in the URL
    assertThat(texts(XOP, mtomType("<root@x>"), message(root, "cid:%3Ca@b%3E", "a@b")))
        .containsExactly(HELLO);
  }

  @Test
  void startWithOrWithoutBracketsAndNoStartMeansFirstPart() throws Exception {
    String root = "Content-Type: " + ROOT_TYPE + "\r\nContent-ID: <root@x>";
    for (String start : new String[] {"<root@x>", "root@x", null}) {
      assertThat(texts(XOP, mtomType(start), message(root, "cid:a@b", "<a@b>")))
          .as("start=" + start).containsExactly(HELLO);
    }
    String bareRoot = "Content-Type: " + ROOT_TYPE + "\r\nContent-ID: root@x";
    assertThat(texts(XOP, mtomType("<root@x>"), message(bareRoot, "cid:a@b", "a@b")))
        .containsExactly(HELLO);
  }

  @Test
  void startNamingNoPartIsAnErrorOrLenientlyTheFirstPart() throws Exception {
    String root = "Content-Type: " + ROOT_TYPE + "\r\nContent-ID: <root@x>";
    String msg = message(root, "cid:a@b", "<a@b>");
    XopException e = assertThrows(XopException.class,
        () -> XopTestSupport.read(XOP, mtomType("<wrong-content-id@example.org>"), msg));
    assertMentions(e.reason(), "start parameter names Content-ID <wrong-content-id@example.org>",
        "which no part has");
    XopCodec lenient = XopCodec.builder().lenientStart(true).build();
    assertThat(texts(lenient, mtomType("<wrong@x>"), msg)).containsExactly(HELLO);
  }

  @Test
  void rootDeclaredTextXmlQuotedCharsetAndTrailingSemicolon() throws Exception {
    String root = "Content-Type: text/xml; charset=\"utf-8\";\r\nContent-ID: <root@x>";
    assertThat(texts(XOP, mtomType("<root@x>") + ";", message(root, "cid:a@b", "<a@b>")))
        .containsExactly(HELLO);
  }

  @Test
  void quotedPrintableAndBase64RootParts() throws Exception {
    String qp = "--b\r\nContent-Type: " + ROOT_TYPE + "\r\nContent-Transfer-Encoding:"
        + " quoted-printable\r\n\r\n<r><v>caf=C3=A9 =\r\nau lait</v></r>\r\n--b--\r\n";
    assertThat(texts(XOP, mtomType(null), qp)).containsExactly("v=café au lait");
    String b64 = "--b\r\nContent-Type: " + ROOT_TYPE + "\r\nContent-Transfer-Encoding: base64"
        + "\r\n\r\nPHI+PHY+b2s8L3Y+PC9yPg==\r\n--b--\r\n"; // <r><v>ok</v></r>
    assertThat(texts(XOP, mtomType(null), b64)).containsExactly("v=ok");
  }

  @Test
  void bareLfMessagesWithLenientLineEnds() throws Exception {
    String msg = message("Content-Type: " + ROOT_TYPE, "cid:a@b", "<a@b>").replace("\r\n", "\n");
    assertThat(texts(XopCodec.builder().lenientLineEnds(true).build(), mtomType(null), msg))
        .containsExactly(HELLO);
  }

  @Test
  void nonCidHrefIsRefusedNeverFetched() throws Exception {
    String msg = message("Content-Type: " + ROOT_TYPE, "http://169.254.169.254/latest", "<a@b>");
    // refused as the package is read, before any consumer sees the root
    XopException x = assertThrows(XopException.class,
        () -> XopTestSupport.read(XOP, mtomType(null), msg));
    assertMentions(x.reason(), "not a cid: URL", "never fetches");
    assertMentions(x.context(), "http://169.254.169.254/latest");
  }

  @Test
  void unreferencedAttachmentIsKeptAndMissingOneIsNamed() throws Exception {
    String msg = message("Content-Type: " + ROOT_TYPE, "cid:missing@x", "<other@x>");
    try (XopPackage pkg = XopTestSupport.read(XOP, mtomType(null), msg)) {
      assertThat(pkg.attachment("other@x").bytes().utf8()).isEqualTo("hello");
      XMLStreamException e = assertThrows(XMLStreamException.class,
          () -> drain(pkg.newXmlReader()));
      assertMentions(XopReader.translate(e, "root").reason(), "Content-ID <missing@x>");
    }
  }

  @Test
  void duplicateContentIdIsAnError() {
    String msg = "--b\r\nContent-Type: " + ROOT_TYPE + "\r\n\r\n<r/>\r\n--b\r\nContent-ID: <d@x>"
        + "\r\n\r\n1\r\n--b\r\nContent-ID: <d@x>\r\n\r\n2\r\n--b--\r\n";
    XopException e = assertThrows(XopException.class, () -> {
      try (XopPackage pkg = XopTestSupport.read(XOP, mtomType(null), msg)) {
        pkg.attachments();
      }
    });
    assertMentions(e.reason(), "duplicate Content-ID <d@x>");
  }

  @Test
  void dtdsAndExternalEntitiesAreRefused() throws Exception {
    String xxe = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        + "<r>&x;</r>";
    try (XopPackage pkg = XopTestSupport.read(XOP, "text/xml", xxe)) {
      XMLStreamException e = assertThrows(XMLStreamException.class,
          () -> drain(pkg.newXmlReader()));
      assertThat(e.getMessage()).contains("DTD not allowed").doesNotContain("root:x:0:0");
    }
    String bomb = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\">"
        + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><r>&b;</r>";
    try (XopPackage pkg = XopTestSupport.read(XOP, "text/xml", bomb)) {
      assertThrows(XMLStreamException.class, () -> drain(pkg.newXmlReader()));
    }
  }

  @Test
  void xmlLimitsAreEnforced() throws Exception {
    XopCodec shallow = XopCodec.builder().limits(XopLimits.builder()
        .xml(XmlLimits.builder().maxDepth(10).build()).build()).build();
    String deep = "<a>".repeat(11) + "</a>".repeat(11);
    try (XopPackage pkg = XopTestSupport.read(shallow, "text/xml", deep)) {
      XMLStreamException e = assertThrows(XMLStreamException.class,
          () -> drain(pkg.newXmlReader()));
      XopException x = XopReader.translate(e, "root");
      assertThat(x.limitName()).isEqualTo("XmlLimits.maxDepth");
      assertThat(x.limitValue()).isEqualTo(10);
    }
    String ten = "<a>".repeat(10) + "</a>".repeat(10);
    try (XopPackage pkg = XopTestSupport.read(shallow, "text/xml", ten)) {
      drain(pkg.newXmlReader());
    }
  }

  @Test
  void rootLargerThanItsLimitIsRefusedBeforeItIsHeld() {
    XopCodec small = XopCodec.builder().limits(XopLimits.builder().maxRootBytes(100).build())
        .build();
    XopException e = assertThrows(XopException.class, () -> XopTestSupport.read(small,
        "text/xml", "<r>" + "x".repeat(200) + "</r>"));
    assertThat(e.limitName()).isEqualTo("XopLimits.maxRootBytes");
  }

  static void drain(XopReader r) throws XMLStreamException {
    while (r.hasNext()) {
      r.next();
    }
  }

}
