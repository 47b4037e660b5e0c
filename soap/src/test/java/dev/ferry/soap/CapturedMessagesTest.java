package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MimeLimits;
import dev.ferry.testkit.Vectors;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Map;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/** SOAP messages captured from WebLogic, Axis 1 and Axis2 read into message buffers. */
class CapturedMessagesTest {
  static final SoapCodec SOAP = SoapCodec.create();

  static MessageBuffer read(String file) throws Exception {
    for (Map<String, String> row : Vectors.tsv("mime/shared/MANIFEST.tsv")) {
      if (row.get("file").equals(file)) {
        return SOAP.read(new ByteArrayInputStream(Vectors.bytes("mime/shared/" + file)),
            row.get("content_type"));
      }
    }
    throw new AssertionError(file);
  }

  @Test
  void weblogicResponseWithWsAddressing2004Headers() throws Exception {
    try (MessageBuffer buf = read("msg-soap-wls81.txt")) {
      assertThat(buf.version()).isEqualTo(SoapVersion.SOAP_11);
      assertThat(buf.headers()).isNotEmpty();
      String wsa2004 = "http://schemas.xmlsoap.org/ws/2004/03/addressing";
      assertThat(buf.headers()).extracting(h -> h.name().getNamespaceURI()).contains(wsa2004);
      Message m = buf.toMessage();
      assertThat(m.toByteString()).isEqualTo(buf.envelope());
      Message fwd = m.copy();
      fwd.addressing().setTo("http://backend");
      assertThat(SOAP.parse(fwd.toByteString()).toMessage().addressing().to())
          .isEqualTo("http://backend");
      assertThat(buf.attachments().attachment("__WLS__1188904239162__SOAP__").size())
          .isEqualTo(25831);
    }
  }

  @Test
  void axis1SwaRequestFromItsOwnHttpHead() throws Exception {
    InputStream in = new ByteArrayInputStream(Vectors.bytes("mime/shared/swainput.bin"));
    while (in.read() != '\n') {
      // request line
    }
    MimeHeaders head = MimeHeaders.readFrom(in, MimeLimits.DEFAULTS, false);
    try (MessageBuffer buf = SOAP.read(in, head.get("Content-Type"))) {
      assertThat(buf.version()).isEqualTo(SoapVersion.SOAP_11);
      assertThat(buf.body().utf8()).contains("echoAttachment")
          .contains("href=\"cid:3936AE19FBED55AE4620B81C73BDD76E\"");
      assertThat(buf.attachments().attachment("3936AE19FBED55AE4620B81C73BDD76E").bytes().utf8())
          .startsWith("Apache Axis2 - The NExt Generation Web Services Engine");
    }
  }

  @Test
  void axis2MtomSampleBodyStaysUnparsedAndIncludesResolveOnDemand() throws Exception {
    try (MessageBuffer buf = read("mtom-sample2.msg")) {
      assertThat(buf.version()).isEqualTo(SoapVersion.SOAP_12);
      var r = buf.toMessage().bodyReader();
      boolean binary = false;
      while (r.hasNext()) {
        r.next();
        if (r instanceof dev.ferry.xop.XopReader x && x.isBinary()) {
          binary = true;
          assertThat(x.binary().bytes().hex()).isEqualTo("3841200c0c073f3f3f62");
        }
      }
      assertThat(binary).isTrue();
    }
  }

  @Test
  void swaMessageWithoutHeader() throws Exception {
    try (MessageBuffer buf = read("SwAmessage.bin")) {
      assertThat(buf.headers()).isEmpty();
      Message m = buf.toMessage();
      m.addHeader(HeaderBlock.text(new QName("urn:trace", "Hop", "t"), "gateway-1"));
      MessageBuffer again = SOAP.parse(m.toByteString());
      assertThat(again.headers()).extracting(HeaderBlock::text).containsExactly("gateway-1");
      assertThat(again.body()).isEqualTo(buf.body());
    }
  }
}
