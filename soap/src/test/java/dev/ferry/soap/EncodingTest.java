package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Envelopes in encodings other than UTF-8 are read (transcoded once to UTF-8), changed and sent
 * on as UTF-8, with their text intact; the encoding comes from the byte order mark, the
 * transport's charset or the XML declaration, in that order.
 */
class EncodingTest {
  private static final SoapCodec SOAP = SoapCodec.create();
  private static final String TEXT = "Gr\u00fc\u00dfe aus K\u00f6ln \u20ac";

  private static String envelope(String declared) {
    return (declared == null ? "" : "<?xml version=\"1.0\" encoding=\"" + declared + "\"?>")
        + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Header>"
        + "<h:Note xmlns:h=\"urn:h\">" + TEXT + "</h:Note></s:Header><s:Body>"
        + "<b:say xmlns:b=\"urn:b\">" + TEXT + "</b:say></s:Body></s:Envelope>";
  }

  @ParameterizedTest(name = "{0}, declared {1}, transport {2}")
  @CsvSource(nullValues = "none", value = {
      "ISO-8859-15, ISO-8859-15, none", "windows-1252, none, windows-1252",
      "UTF-16LE, UTF-16, none", "UTF-16BE, none, none", "UTF-8, UTF-8, UTF-8"})
  void readsChangesAndForwardsAsUtf8(String bytesIn, String declared, String transport)
      throws Exception {
    Charset cs = Charset.forName(bytesIn);
    String xml = envelope(declared);
    if (cs.equals(StandardCharsets.UTF_16LE) && declared != null) {
      xml = "\uFEFF" + xml; // a declared UTF-16 envelope starts with a byte order mark
    }
    ByteString bytes = ByteString.encode(xml, cs);
    String contentType = "text/xml" + (transport == null ? "" : "; charset=" + transport);
    try (MessageBuffer buf = SOAP.read(bytes.asInputStream(), contentType)) {
      Message m = buf.toMessage();
      assertThat(m.headers().get(0).text()).isEqualTo(TEXT);
      m.addressing().setTo("urn:next");
      Payload out = m.toPayload();
      assertThat(out.contentType()).endsWith("charset=UTF-8");
      ByteStringBuilder sent = new ByteStringBuilder(512);
      out.writeTo(sent.asOutputStream());
      MessageBuffer again = SOAP.read(sent.toByteString().asInputStream(), out.contentType());
      assertThat(again.headers().get(0).text()).isEqualTo(TEXT);
      assertThat(again.toMessage().addressing().to()).isEqualTo("urn:next");
      assertThat(again.body().utf8()).contains(TEXT);
    }
  }

  @Test
  void anUnknownOrBrokenEncodingIsAnErrorThatSaysSo() {
    assertThatThrownBy(() -> SOAP.read(ByteString.encodeUtf8(envelope("x-nothing"))
        .asInputStream(), "text/xml")).isInstanceOf(SoapException.class)
        .hasMessageContaining("x-nothing");
    byte[] notAscii = ByteString.encode(envelope(null), StandardCharsets.ISO_8859_1).toByteArray();
    assertThatThrownBy(() -> SOAP.read(ByteString.of(notAscii).asInputStream(),
        "text/xml; charset=US-ASCII")).isInstanceOf(SoapException.class);
  }
}
