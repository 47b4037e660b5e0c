package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.xml.ws.BindingProvider;
import java.io.IOException;
import java.net.URI;
import org.apache.cxf.Bus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CXF's and Metro's JAX-WS clients against Ferry's server hosting the echo service: the peers
 * send, Ferry reads and answers, the peers read Ferry's answer.
 */
class FerryServerInteropTest {
  private static FerryPeer.EchoServer server;
  private static Bus clientBus;

  @BeforeAll
  static void start() throws IOException {
    server = new FerryPeer.EchoServer();
    clientBus = CxfPeer.newBus();
  }

  @AfterAll
  static void stop() throws IOException {
    clientBus.shutdown(true);
    server.close();
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void cxfClient(int size, boolean mtom) {
    echo(CxfPeer.client(clientBus, server.uri(), mtom), Blobs.of(size), mtom);
  }

  @ParameterizedTest(name = "12 MiB, MTOM {0}")
  @ValueSource(booleans = {true, false})
  void cxfClientTwelveMebibytes(boolean mtom) {
    echo(CxfPeer.client(clientBus, server.uri(), mtom), Blobs.of(Blobs.LARGE), mtom);
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void metroClient(int size, boolean mtom) {
    echo(MetroPeer.client(server.uri(), mtom), Blobs.of(size), mtom);
  }

  @ParameterizedTest(name = "12 MiB, MTOM {0}")
  @ValueSource(booleans = {true, false})
  void metroClientTwelveMebibytes(boolean mtom) {
    echo(MetroPeer.client(server.uri(), mtom), Blobs.of(Blobs.LARGE), mtom);
  }

  /** CXF builds its port from Ferry's {@code ?wsdl}, address included, and calls it. */
  @ParameterizedTest(name = "MTOM {0}")
  @ValueSource(booleans = {true, false})
  void cxfClientBuiltFromServedWsdl(boolean mtom) {
    TestMtomPort port = CxfPeer.clientFromWsdl(clientBus, wsdlOf(server.uri()), mtom);
    assertThat(((BindingProvider) port).getRequestContext()
        .get(BindingProvider.ENDPOINT_ADDRESS_PROPERTY))
        .as("the address CXF read from the served WSDL")
        .isEqualTo(server.uri().toString());
    echo(port, Blobs.of(Blobs.KIB), mtom);
  }

  /** Metro builds its port from Ferry's {@code ?wsdl} too. */
  @ParameterizedTest(name = "MTOM {0}")
  @ValueSource(booleans = {true, false})
  void metroClientBuiltFromServedWsdl(boolean mtom) {
    TestMtomPort port = MetroPeer.clientFromWsdl(wsdlOf(server.uri()), mtom);
    assertThat(((BindingProvider) port).getRequestContext()
        .get(BindingProvider.ENDPOINT_ADDRESS_PROPERTY))
        .as("the address Metro read from the served WSDL")
        .isEqualTo(server.uri().toString());
    echo(port, Blobs.of(Blobs.KIB), mtom);
  }

  private static URI wsdlOf(URI endpoint) {
    return URI.create(endpoint + "?wsdl");
  }

  private static void echo(TestMtomPort port, byte[] blob, boolean mtom) {
    EchoReply reply = JaxWsEcho.call(port, Blobs.NAME, blob);
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo(), blob);
    FerryPeer.Arrival arrival = server.lastArrival();
    WireAssertions.assertMtom(arrival.contentType(), mtom);
    assertThat(arrival.attached()).as("blob sent as an xop:Include").isEqualTo(mtom);
    assertThat(arrival.brokered()).as("came through the broker").isFalse();
    WireAssertions.assertMtom(reply.contentType(), mtom);
  }
}
