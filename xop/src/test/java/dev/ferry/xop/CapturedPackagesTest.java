package dev.ferry.xop;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MimeException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;

/** Captured MTOM/SwA messages from Axis2, Axiom, SoapUI and WebLogic read through XOP. */
class CapturedPackagesTest {
  static final XopCodec STRICT = XopCodec.create();
  static final XopCodec LENIENT = XopCodec.builder().lenientLineEnds(true).build();

  @Test
  void axis2Sample1IncludesReadAsBase64AndAsBinary() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(LENIENT, "mtom-sample1.msg")) {
      assertThat(pkg.isXop()).isTrue();
      assertThat(pkg.rootContentId())
          .isEqualTo("0.urn:uuid:A3ADBAEE51A1A87B2A11443668160702@apache.org");
      XopReader r = pkg.newXmlReader();
      List<Long> sizes = new ArrayList<>();
      while (r.hasNext()) {
        if (r.next() == XMLStreamConstants.CHARACTERS && r.isBinary()) {
          ByteString bytes = r.binary().bytes();
          sizes.add((long) bytes.size());
          assertThat(Base64.getDecoder().decode(r.getText())).isEqualTo(bytes.toByteArray());
          assertThat(bytes.subSequence(0, 2).hex()).isEqualTo("ffd8"); // a JPEG
        }
      }
      assertThat(sizes).containsExactly(47999L, 13887L);
    }
  }

  @Test
  void getElementTextAcrossAnInclude() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(STRICT, "zero-length-attachment.bin")) {
      XopReader r = pkg.newXmlReader();
      List<String> texts = XopTestSupport.texts(r);
      assertThat(texts).isEmpty(); // the only include is the zero-length attachment
      assertThat(pkg.attachments()).hasSize(1);
      assertThat(pkg.attachments().iterator().next().size()).isZero();
    }
  }

  @Test
  void axis2Sample2BareContentIdsAndNoContentType() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(STRICT, "mtom-sample2.msg")) {
      assertThat(pkg.rootContentId()).isEqualTo("SOAPPart");
      Attachment a = pkg.attachment("<-1609420109260943731>");
      assertThat(a.contentType().baseType()).isEqualTo("application/octet-stream");
      assertThat(a.bytes().hex()).isEqualTo("3841200c0c073f3f3f62");
      assertThat(String.join("|", XopTestSupport.texts(pkg.newXmlReader())))
          .contains(a.bytes().base64());
    }
  }

  @Test
  void soapUiQuotedPrintableAttachmentIsDecoded() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(STRICT, "mtom-quoted-printable.msg")) {
      Attachment a = pkg.attachment("SDESS_COREP_00000_KO_SNG.xml");
      assertThat(a.size()).isEqualTo(7641);
      XopReader r = pkg.newXmlReader();
      boolean seen = false;
      while (r.hasNext()) {
        if (r.next() == XMLStreamConstants.CHARACTERS && r.isBinary()) {
          seen = true;
          assertThat(new String(Base64.getDecoder().decode(r.getText()), "windows-1252"))
              .startsWith("<?xml");
        }
      }
      assertThat(seen).isTrue();
    }
  }

  @Test
  void w3cSampleWithUrlContentIds() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(STRICT, "xop-spec-sample.msg")) {
      List<String> texts = XopTestSupport.texts(pkg.newXmlReader());
      assertThat(texts).containsExactly("photo=/aWKKapGGyQ=", "sig=Faa7vROi2VQ=");
    }
  }

  @Test
  void danglingReferenceIsReportedWithItsContentId() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(LENIENT, "wmtom.bin")) {
      XopReader r = pkg.newXmlReader();
      XMLStreamException e = assertThrows(XMLStreamException.class, () -> {
        while (r.hasNext()) {
          r.next();
        }
      });
      XopException x = XopReader.translate(e, "root");
      assertMentions(x.reason(), "Content-ID <1.BBFC8D48A21258EBBD@apache.org>",
          "which no part of the package has");
      assertMentions(x.context(), "xop:Include href=\"cid:1.BBFC8D48A21258EBBD@apache.org\"");
      assertThat(x.byteOffset()).isPositive();
    }
  }

  @Test
  void lfOnlyPackageNeedsLenientLineEnds() {
    assertThrows(MimeException.class, () -> XopTestSupport.open(STRICT, "wmtom.bin"));
  }

  @Test
  void swaMessagesKeepUnreferencedAttachmentsInOrder() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(STRICT, "swa-sample1.msg")) {
      assertThat(pkg.isXop()).isFalse();
      assertThat(pkg.attachments()).extracting(Attachment::contentId)
          .containsExactly("BAttachment", "AAttachment");
      assertThat(pkg.attachment("AAttachment").size()).isEqualTo(4991);
    }
    try (XopPackage pkg = XopTestSupport.open(STRICT, "msg-soap-wls81.txt")) {
      assertThat(pkg.rootContentId()).isEqualTo("__WLS__1188904239161__SOAP__");
      Attachment pdf = pkg.attachment("__WLS__1188904239162__SOAP__");
      assertThat(pdf.bytes().subSequence(0, 8).utf8()).isEqualTo("%PDF-1.3");
    }
  }
}
