package dev.ferry.interop.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Route;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;

/**
 * The examples of the README and the guides: each runs here, and {@link DocSnippetsTest} checks
 * that the documents show them as they are (the regions between the {@code tag::} comments).
 */
class LibraryExamplesTest {
  private static final String NS = "urn:example:store";

  @Test
  void anMtomServiceAndItsClient() throws Exception {
    // tag::mtom-service[]
    SoapCodec codec = SoapCodec.create();
    Dispatcher store = Dispatcher.builder()
        .element(new QName(NS, "store"), request -> {
          long stored = 0;
          XMLStreamReader body = request.bodyReader();       // positioned on <Body>
          while (body.hasNext()) {
            if (body.next() == XMLStreamConstants.CHARACTERS
                && body instanceof XopReader xop && xop.isBinary()) {
              try (InputStream in = xop.binary().openStream()) { // the attachment, not base64
                stored += in.transferTo(OutputStream.nullOutputStream());
              }
            }
          }
          String size = Long.toString(stored);
          return codec.payload(request.version(), MtomPolicy.NEVER, List.of(), reply -> {
            reply.writeStartElement("s", "stored", NS);
            reply.writeNamespace("s", NS);
            reply.writeCharacters(size);
            reply.writeEndElement();
          });
        })
        .build();
    try (SoapServer server = SoapServer.builder().port(0).endpoint("/store", store)
        .build().start()) {
      // end::mtom-service[]
      String answer;
      // tag::mtom-client[]
      byte[] photo = new byte[256 * 1024];
      Payload request = codec.payload(SoapVersion.SOAP_12, MtomPolicy.DEFAULT, List.of(),
          body -> {
            body.writeStartElement("s", "store", NS);
            body.writeNamespace("s", NS);
            body.writeBinary(ByteString.of(photo), "image/jpeg"); // above the threshold: attached
            body.writeEndElement();
          });
      try (SoapClient client = SoapClient.create();
          SoapResponse reply = client.call(server.uri("/store"), request, null)) {
        answer = reply.message().body().utf8();              // <s:stored ...>262144</s:stored>
      }
      // end::mtom-client[]
      assertThat(answer).contains(">262144<");
    }
  }

  @Test
  void aBrokerInJava() throws Exception {
    try (SoapServer backend = SoapServer.builder().endpoint("/quotes",
        Dispatcher.builder().fallback(request -> request.copy().toPayload()).build())
        .build().start()) {
      URI quotesService = backend.uri("/quotes");
      // tag::broker[]
      Routes routes = Routes.of(List.of(
          new Route("/quotes", null, quotesService, null)));  // path, action, to, audit
      try (Broker broker = Broker.builder().port(0).routes(routes).build().start()) {
        URI front = broker.uri("/quotes");                 // callers post here
        // end::broker[]
        try (SoapClient client = SoapClient.create();
            SoapResponse r = client.call(front, SoapCodec.create().payload(
                SoapVersion.SOAP_11, MtomPolicy.NEVER, List.of(), b -> {
                  b.writeStartElement("q", "quote", NS);
                  b.writeNamespace("q", NS);
                  b.writeEndElement();
                }), null)) {
          assertThat(r.status()).isEqualTo(200);
        }
      }
    }
  }
}
