package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

class FaultTest {
  static final SoapCodec SOAP = SoapCodec.create();

  @Test
  void soap11FaultRoundTrip() throws Exception {
    Fault f = Fault.of(SoapVersion.SOAP_11, SoapVersion.SOAP_11.senderFaultCode(), "bad <input>")
        .withRole("urn:gateway").withDetail("<d:why xmlns:d=\"urn:d\">too big</d:why>");
    ByteString env = f.toEnvelope(SOAP);
    assertThat(env.utf8()).contains("<faultcode>soap:Client</faultcode>")
        .contains("<faultstring>bad &lt;input></faultstring>")
        .contains("<detail><d:why xmlns:d=\"urn:d\">too big</d:why></detail>");
    Message m = SOAP.parse(env).toMessage();
    assertThat(m.isFault()).isTrue();
    Fault read = Fault.read(m);
    assertThat(read.code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
    assertThat(read.reason()).isEqualTo("bad <input>");
    assertThat(read.role()).isEqualTo("urn:gateway");
    assertThat(read.detail()).isEqualTo("too big");
  }

  @Test
  void soap12FaultWithSubcodesRoundTrip() throws Exception {
    QName sub1 = new QName("urn:app", "Limit", "app");
    QName sub2 = new QName("urn:app", "Size", "app");
    Fault f = Fault.of(SoapVersion.SOAP_12, SoapVersion.SOAP_12.receiverFaultCode(),
        "MimeLimits.maxPartBytes exceeded").withSubcode(sub1).withSubcode(sub2);
    Message m = SOAP.parse(f.toEnvelope(SOAP)).toMessage();
    Fault read = Fault.read(m);
    assertThat(read.version()).isEqualTo(SoapVersion.SOAP_12);
    assertThat(read.code()).isEqualTo(SoapVersion.SOAP_12.receiverFaultCode());
    assertThat(read.subcodes()).containsExactly(sub1, sub2);
    assertThat(read.reason()).isEqualTo("MimeLimits.maxPartBytes exceeded");
  }

  @Test
  void aNormalBodyIsNoFault() throws Exception {
    Message m = SOAP.parse(ByteString.encodeUtf8("<s:Envelope xmlns:s=\""
        + SoapVersion.SOAP_11.namespace() + "\"><s:Body><a/></s:Body></s:Envelope>")).toMessage();
    assertThat(m.isFault()).isFalse();
    assertThat(Fault.read(m)).isNull();
  }
}
