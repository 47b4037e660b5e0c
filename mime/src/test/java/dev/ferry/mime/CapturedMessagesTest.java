package dev.ferry.mime;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.ThrottledInputStream;
import dev.ferry.testkit.Vectors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Messages captured from Axis2, Axiom, WebLogic and SoapUI (test resources vectors/mime/shared,
 * Apache License 2.0), parsed to the facts their manifest states.
 */
class CapturedMessagesTest {

  /** What one captured message must parse to. */
  record Expected(String file, boolean lenient, List<String> contentIds, List<Integer> sizes) {}

  static final List<Expected> EXPECTED = List.of(
      new Expected("mtom-sample1.msg", true, List.of(
          "0.urn:uuid:A3ADBAEE51A1A87B2A11443668160702@apache.org",
          "1.urn:uuid:A3ADBAEE51A1A87B2A11443668160943@apache.org",
          "2.urn:uuid:A3ADBAEE51A1A87B2A11443668160994@apache.org"), List.of(662, 47999, 13887)),
      new Expected("mtom-sample2.msg", false, List.of("SOAPPart", "-1609420109260943731"),
          List.of(331, 10)),
      new Expected("mtom-quoted-printable.msg", false, List.of("rootpart@soapui.org",
          "SDESS_COREP_00000_KO_SNG.xml"), List.of(400, 7943)),
      new Expected("swa-sample1.msg", false, List.of(
          "0.urn:uuid:A3ADBAEE51A1A87B2A11443668160702@apache.org", "BAttachment",
          "AAttachment"), List.of(238, 48314, 4991)),
      new Expected("msg-soap-wls81.txt", false, List.of("__WLS__1188904239161__SOAP__",
          "__WLS__1188904239162__SOAP__"), List.of(972, 25831)),
      new Expected("zero-length-attachment.bin", false, List.of(
          "0.urn:uuid:0549F3F826EC3041861188639371826@apache.org",
          "1.urn:uuid:0549F3F826EC3041861188639371827@apache.org"), List.of(386, 0)),
      new Expected("xop-spec-sample.msg", false, List.of("mymessage.xml@example.org",
          "http://example.org/me.png", "http://example.org/my.hsh"), List.of(316, 14, 14)),
      new Expected("wmtom.bin", true, List.of("0.15B50EF49317518B01@apache.org",
          "11.BBFC8D48A21258EBBD@apache.org", "2.CB365E36E21BD6491A@apache.org"),
          List.of(668, 161, 161)),
      new Expected("mime_message.txt", true, List.of("0.15B50EF49317518B01@apache.org",
          "11.BBFC8D48A21258EBBD@apache.org", "2.CB365E36E21BD6491A@apache.org"),
          List.of(668, 161, 161)),
      new Expected("swainput.bin", false, List.of("9D645C8EBB837CE54ABD027A3659535D",
          "3936AE19FBED55AE4620B81C73BDD76E"), List.of(365, 56)),
      new Expected("SwAmessage.bin", false, List.of(
          "0.urn:uuid:E3F7CE4554928DA89B1231365678617@apache.org",
          "urn:uuid:E3F7CE4554928DA89B1231365678347"), List.of(334, 9)));

  static Stream<Arguments> messagesAndChunkings() {
    List<Arguments> all = new ArrayList<>();
    for (Expected e : EXPECTED) {
      for (Chunking c : List.of(Chunking.whole(), Chunking.fixed(1), Chunking.fixed(7),
          Chunking.random(7, 3000))) {
        all.add(Arguments.of(e, c));
      }
    }
    return all.stream();
  }

  /** A captured message: its multipart body and its Content-Type. */
  record Message(MediaType contentType, byte[] body) {}

  static Message load(String file) throws IOException {
    byte[] bytes = Vectors.bytes("mime/shared/" + file);
    if (file.equals("swainput.bin")) { // a whole HTTP request: the head holds the Content-Type
      InputStream in = new ByteArrayInputStream(bytes);
      readLine(in); // request line
      MimeHeaders head = MimeHeaders.readFrom(in, MimeLimits.DEFAULTS, false);
      return new Message(head.contentType(), in.readAllBytes());
    }
    for (Map<String, String> row : Vectors.tsv("mime/shared/MANIFEST.tsv")) {
      if (row.get("file").equals(file)) {
        return new Message(MediaType.parse(row.get("content_type")), bytes);
      }
    }
    throw new AssertionError("not in the manifest: " + file);
  }

  private static void readLine(InputStream in) throws IOException {
    for (int c; (c = in.read()) != '\n'; ) {
      assertThat(c).isNotNegative();
    }
  }

  @ParameterizedTest(name = "{0} in {1}")
  @MethodSource("messagesAndChunkings")
  void parsesToTheManifest(Expected expected, Chunking chunking) throws IOException {
    Message m = load(expected.file());
    List<String> ids = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    try (MultipartReader r = MultipartReader.builder(
        new ThrottledInputStream(m.body(), chunking), m.contentType().boundary())
        .lenientLineEnds(expected.lenient()).build()) {
      for (Part p; (p = r.nextPart()) != null; ) {
        ids.add(p.contentId());
        sizes.add(p.body().readAllBytes().length);
      }
    }
    assertThat(ids).isEqualTo(expected.contentIds());
    assertThat(sizes).isEqualTo(expected.sizes());
  }

  /** Ferry's reader and push parser see each captured message as Apache mime4j does. */
  @ParameterizedTest(name = "{0} in {1}")
  @MethodSource("messagesAndChunkings")
  void parsesAsMime4jDoes(Expected expected, Chunking chunking) throws Exception {
    Message m = load(expected.file());
    String type = m.contentType().toString();
    List<String> peer = PeerRendering.mime4j(m.body(), type);
    assertThat(peer).filteredOn(line -> line.equals("part"))
        .hasSize(expected.contentIds().size());
    assertThat(PeerRendering.ferry(m.body(), type, chunking, expected.lenient(), false))
        .isEqualTo(peer);
    assertThat(PeerRendering.ferryPush(m.body(), type, chunking, expected.lenient(), false))
        .isEqualTo(peer);
  }

  @Test
  void mtomSample2AttachmentBytesAreExact() throws IOException {
    byte[] data = partBody("mtom-sample2.msg", false, 1);
    assertThat(HexFormat.of().formatHex(data)).isEqualTo("3841200c0c073f3f3f62");
  }

  @Test
  void quotedPrintableAttachmentDecodesTo7641Bytes() throws IOException {
    Message m = load("mtom-quoted-printable.msg");
    try (MultipartReader r = MultipartReader.open(new ByteArrayInputStream(m.body()),
        m.contentType())) {
      r.nextPart();
      Part attachment = r.nextPart();
      assertThat(attachment.headers().contentTransferEncoding()).isEqualTo("quoted-printable");
      byte[] decoded = attachment.decodedBody().readAllBytes();
      assertThat(decoded).hasSize(7641);
      assertThat(new String(decoded, 0, 5)).isEqualTo("<?xml");
    }
  }

  @Test
  void xopSpecSampleAttachmentsAreBase64OfEightBytes() throws IOException {
    Message m = load("xop-spec-sample.msg");
    try (MultipartReader r = MultipartReader.open(new ByteArrayInputStream(m.body()),
        m.contentType())) {
      Part root = r.nextPart();
      assertThat(root.headers().contentType().parameter("type")).isEqualTo("text/xml");
      for (Part p; (p = r.nextPart()) != null; ) {
        assertThat(p.decodedBody().readAllBytes()).hasSize(8);
      }
    }
  }

  @Test
  void weblogicPdfIsWhole() throws IOException {
    byte[] pdf = partBody("msg-soap-wls81.txt", false, 1);
    assertThat(new String(pdf, 0, 8)).isEqualTo("%PDF-1.3");
    assertThat(new String(pdf, pdf.length - 7, 7)).isEqualTo("%%EOF\r\n");
  }

  @Test
  void strictModeRejectsLfOnlyMessagesClearly() throws IOException {
    Message m = load("wmtom.bin");
    MimeException e = assertThrows(MimeException.class, () -> {
      try (MultipartReader r = MultipartReader.open(new ByteArrayInputStream(m.body()),
          m.contentType())) {
        r.nextPart();
      }
    });
    assertMentions(e.reason(), "unexpected byte 0x0A after boundary", "expected: CRLF");
    assertEquals(34, e.byteOffset());
  }

  @Test
  void strictModeRejectsTheBareLfFoldOfMtomSample1() throws IOException {
    Message m = load("mtom-sample1.msg");
    MimeException e = assertThrows(MimeException.class, () -> {
      try (MultipartReader r = MultipartReader.open(new ByteArrayInputStream(m.body()),
          m.contentType())) {
        r.nextPart();
      }
    });
    assertMentions(e.reason(), "bare LF in header section");
    assertEquals("part 0 > headers", e.context());
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {1050, 1500})
  void anInputErrorInsideAPartSurfacesAsAMimeErrorNotAShortPart(int failAt) throws IOException {
    Message m = load("mtom-sample1.msg");
    MimeException e = assertThrows(MimeException.class, () -> {
      try (MultipartReader r = MultipartReader.builder(new ThrottledInputStream(m.body(),
          Chunking.fixed(100), failAt), m.contentType().boundary()).lenientLineEnds(true)
          .build()) {
        for (Part p; (p = r.nextPart()) != null; ) {
          p.body().readAllBytes();
        }
      }
    });
    assertMentions(e.reason(), "I/O error");
    assertEquals(failAt, e.byteOffset());
    assertThat(e.context()).startsWith("part 1 > ");
    assertThat(e.getCause()).hasMessageContaining("injected failure");
  }

  private static byte[] partBody(String file, boolean lenient, int index) throws IOException {
    Message m = load(file);
    try (MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(m.body()),
        m.contentType().boundary()).lenientLineEnds(lenient).build()) {
      for (Part p; (p = r.nextPart()) != null; ) {
        if (p.index() == index) {
          return p.body().readAllBytes();
        }
      }
    }
    throw new AssertionError("no part " + index);
  }
}
