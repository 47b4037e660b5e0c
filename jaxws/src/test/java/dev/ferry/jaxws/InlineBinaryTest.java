package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.client.SoapClient;
import dev.ferry.jaxws.internal.BytesSource;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.adapters.HexBinaryAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.util.Base64;
import java.util.HexFormat;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/**
 * Binaries inline (MTOM off) through JAXB on both ends, beside texts that look like base64: a
 * {@code byte[]}, a {@code DataHandler} and a hexBinary come back as they went, and strings of
 * the base64 alphabet, canonical or not, come back character for character.
 */
class InlineBinaryTest {
  /** A document with binaries and texts. */
  @XmlAccessorType(XmlAccessType.FIELD)
  public static class Doc {
    public byte[] data;
    public DataHandler file;
    @XmlJavaTypeAdapter(HexBinaryAdapter.class)
    public byte[] hex;
    public String canonical;
    public String padBits;
    public String wrapped;
  }

  @Test
  void binariesAndBase64LookingTextsRoundTrip() throws Exception {
    TypedOperation<Doc, Doc> op = TypedOperation.builder(new QName("urn:b", "doc"), Doc.class,
        new QName("urn:b", "docBack"), Doc.class).mtom(MtomPolicy.NEVER).build();
    Dispatcher d = op.addTo(Dispatcher.builder(), doc -> doc).build();
    byte[] data = Blobs.random(300_000, 1);
    byte[] file = Blobs.random(20_000, 2);
    byte[] hex = Blobs.random(3_000, 3);
    Doc doc = new Doc();
    doc.data = data;
    doc.file = new DataHandler(new BytesSource(file));
    doc.hex = hex;
    doc.canonical = Base64.getEncoder().encodeToString(Blobs.random(3_001, 4));
    // the last quantum's pad bits are not zero: decoding and encoding again would change it
    doc.padBits = doc.canonical.substring(0, doc.canonical.length() - 4) + "QR==";
    doc.wrapped = Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(
        Blobs.random(3_000, 5));
    try (SoapServer server = SoapServer.builder().endpoint("/doc", d).build().start();
        SoapClient client = SoapClient.create()) {
      Doc back = op.call(client, server.uri("/doc"), doc);
      assertThat(back.data).isEqualTo(data);
      assertThat(JaxWsClientTest.read(back.file)).isEqualTo(file);
      assertThat(HexFormat.of().formatHex(back.hex)).isEqualTo(HexFormat.of().formatHex(hex));
      assertThat(back.canonical).isEqualTo(doc.canonical);
      assertThat(back.padBits).isEqualTo(doc.padBits);
      assertThat(back.wrapped).isEqualTo(doc.wrapped);
    }
  }
}
