package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import javax.xml.namespace.QName;

/** Ferry's own server and client, set up the way the peers' are. */
final class FerryPeer {
  /**
   * Ferry's defaults, as a user gets them: they take a 12 MiB blob sent inline (16 MiB of
   * base64 in the envelope).
   */
  static final SoapCodec CODEC = SoapCodec.create();
  private static final String XOP_NS = "http://www.w3.org/2004/08/xop/include";

  private FerryPeer() {}

  /** The header block Ferry's broker adds to each request it forwards. */
  static final QName BROKER_TRACE = new QName("urn:dev.ferry:trace", "Trace");

  /**
   * How a request reached Ferry's server: its Content-Type, whether the blob was attached, and
   * whether it came through Ferry's broker.
   */
  record Arrival(String contentType, boolean attached, boolean brokered) {}

  /**
   * Ferry's server with the echo service at {@code /echo} (and its WSDL at {@code /echo?wsdl}),
   * noting how each request arrived before the echo answers it.
   */
  static final class EchoServer implements AutoCloseable {
    private final SoapServer server;
    private volatile Arrival lastArrival;

    EchoServer() throws IOException {
      this(CODEC);
    }

    /** A server that reads requests with {@code codec} (its limits). */
    EchoServer(SoapCodec codec) throws IOException {
      Dispatcher echo = EchoService.dispatcher();
      Endpoint noting = request -> {
        lastArrival = arrival(request);
        return echo.select(request, EchoService.SOAP_ACTION).handle(request);
      };
      Dispatcher dispatcher = Dispatcher.builder()
          .soapAction(EchoService.SOAP_ACTION, noting)
          .element(EchoService.REQUEST, noting)
          .wsdl(EchoService.wsdl())
          .build();
      server = SoapServer.builder().host("127.0.0.1").port(0).codec(codec)
          .endpoint("/echo", dispatcher).build().start();
    }

    URI uri() {
      return server.uri("/echo");
    }

    /** How the last request arrived, or null before the first. */
    Arrival lastArrival() {
      return lastArrival;
    }

    @Override
    public void close() throws IOException {
      server.close();
    }

    private static Arrival arrival(Message request) {
      // An attached blob leaves an xop:Include in the body; an inline one leaves base64 text.
      boolean attached = request.body().utf8().contains(XOP_NS);
      return new Arrival(request.attachments().contentType().toString(), attached,
          request.header(BROKER_TRACE) != null);
    }
  }

  static SoapClient client() {
    return SoapClient.builder().codec(CODEC).connectTimeout(Duration.ofSeconds(5))
        .timeout(Duration.ofSeconds(30)).build();
  }

  /** One echo call from Ferry's client: SOAP 1.1, the blob attached (MTOM) or inline. */
  static EchoReply call(SoapClient client, URI uri, boolean mtom, String name, byte[] blob)
      throws IOException {
    Payload request = EchoService.request(CODEC, SoapVersion.SOAP_11,
        mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER, name, ByteString.of(blob));
    try (SoapResponse response = client.call(uri, request, EchoService.SOAP_ACTION)) {
      assertThat(response.status()).as("HTTP status of %s", response).isEqualTo(200);
      assertThat(response.isFault()).as("fault: %s", response.fault()).isFalse();
      EchoService.Echo echo = EchoService.readEcho(response.message());
      return new EchoReply(echo.name(), echo.attachinfo().toByteArray(),
          response.contentType());
    }
  }
}
