package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.xml.ws.api.SOAPVersion;
import com.sun.xml.ws.api.addressing.AddressingVersion;
import com.sun.xml.ws.api.message.AddressingUtils;
import com.sun.xml.ws.api.message.Packet;
import com.sun.xml.ws.api.pipe.Codecs;
import dev.ferry.bytes.ByteString;
import jakarta.xml.soap.MessageFactory;
import jakarta.xml.soap.MimeHeaders;
import jakarta.xml.soap.SOAPConstants;
import jakarta.xml.soap.SOAPMessage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

/**
 * What a Ferry broker forwards (a copy with wsa:To replaced, the body spliced from the received
 * bytes) is read by SAAJ and by Metro as the same message with the new To.
 */
class BrokerForwardInteropTest {
  static final String WSA = Addressing.NS;

  static String envelope(SoapVersion v) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<s:Envelope xmlns:s=\"" + v.namespace()
        + "\" xmlns:wsa=\"" + WSA + "\">\n <s:Header>\n  <wsa:To>http://broker/in</wsa:To>\n"
        + "  <wsa:Action>urn:echo</wsa:Action>\n  <wsa:MessageID>urn:uuid:1</wsa:MessageID>\n"
        + " </s:Header>\n <s:Body><t:echo xmlns:t=\"urn:t\"><t:item n=\"1\">caf\u00e9 &amp; "
        + "<![CDATA[<raw>]]></t:item></t:echo></s:Body>\n</s:Envelope>\n";
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void forwardedCopyReadsTheSameInSaajAndMetro(SoapVersion version) throws Exception {
    SoapCodec codec = SoapCodec.create();
    ByteString received = ByteString.encodeUtf8(envelope(version));
    Message m = codec.parse(received).toMessage();
    assertThat(m.addressing().action()).isEqualTo("urn:echo");
    Message copy = m.copy();
    copy.addressing().setTo("http://backend:8080/svc");
    byte[] forwarded = copy.toByteString().toByteArray();
    assertThat(m.toByteString()).isEqualTo(received);
    assertThat(codec.parse(ByteString.of(forwarded)).body()).isEqualTo(codec.parse(received)
        .body());

    MimeHeaders headers = new MimeHeaders();
    headers.addHeader("Content-Type", version.mediaType() + "; charset=UTF-8");
    SOAPMessage saaj = MessageFactory.newInstance(version == SoapVersion.SOAP_11
        ? SOAPConstants.SOAP_1_1_PROTOCOL : SOAPConstants.SOAP_1_2_PROTOCOL)
        .createMessage(headers, new ByteArrayInputStream(forwarded));
    assertThat(((Element) saaj.getSOAPHeader().getElementsByTagNameNS(WSA, "To").item(0))
        .getTextContent()).isEqualTo("http://backend:8080/svc");
    assertThat(saaj.getSOAPHeader().getElementsByTagNameNS(WSA, "To").getLength()).isOne();
    assertThat(saaj.getSOAPBody().getTextContent()).isEqualTo("caf\u00e9 & <raw>");

    SOAPVersion mv = version == SoapVersion.SOAP_11 ? SOAPVersion.SOAP_11 : SOAPVersion.SOAP_12;
    Packet p = new Packet();
    Codecs.createSOAPEnvelopeXmlCodec(mv).decode(new ByteArrayInputStream(forwarded),
        version.mediaType() + "; charset=UTF-8", p);
    assertThat(AddressingUtils.getTo(p.getMessage().getHeaders(), AddressingVersion.W3C, mv))
        .isEqualTo("http://backend:8080/svc");
    assertThat(AddressingUtils.getAction(p.getMessage().getHeaders(), AddressingVersion.W3C, mv))
        .isEqualTo("urn:echo");
    assertThat(new String(forwarded, StandardCharsets.UTF_8)).contains("<wsa:MessageID>");
  }
}
