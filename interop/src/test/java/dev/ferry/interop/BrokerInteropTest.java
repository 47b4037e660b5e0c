package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.net.URI;
import java.util.stream.Stream;
import org.apache.cxf.Bus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ferry's broker between real peers: CXF's and Metro's clients call Ferry's server through it,
 * and it forwards to CXF's and Metro's servers. The broker streams each request and reply
 * through without re-encoding, so what the caller sent is what the backend reads: an MTOM
 * package stays one, an inline blob stays inline.
 */
class BrokerInteropTest {
  private static FerryPeer.EchoServer ferryServer;
  private static CxfPeer.EchoServer cxfServer;
  private static MetroPeer.EchoServer metroServer;
  private static Broker broker;
  private static Bus clientBus;

  @BeforeAll
  static void start() throws IOException {
    ferryServer = new FerryPeer.EchoServer();
    cxfServer = new CxfPeer.EchoServer();
    metroServer = new MetroPeer.EchoServer();
    broker = Broker.builder().host("127.0.0.1").port(0).codec(FerryPeer.CODEC)
        .routes(Routes.parse(routes())).build().start();
    clientBus = CxfPeer.newBus();
  }

  @AfterAll
  static void stop() throws IOException {
    clientBus.shutdown(true);
    broker.close();
    metroServer.close();
    cxfServer.close();
    ferryServer.close();
  }

  /** One route per backend endpoint; the peers' servers have one path per MTOM mode. */
  private static String routes() {
    return "routes:\n"
        + route("/ferry", ferryServer.uri())
        + route("/cxf/mtom", cxfServer.uri(true))
        + route("/cxf/plain", cxfServer.uri(false))
        + route("/metro/mtom", metroServer.uri(true))
        + route("/metro/plain", metroServer.uri(false));
  }

  private static String route(String path, URI to) {
    return "  - { path: " + path + ", to: \"" + to + "\" }\n";
  }

  private static URI brokered(String backend, boolean mtom) {
    return broker.uri(backend.equals("/ferry") ? backend
        : backend + (mtom ? "/mtom" : "/plain"));
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void cxfClientToFerryServer(int size, boolean mtom) {
    TestMtomPort port = CxfPeer.client(clientBus, brokered("/ferry", mtom), mtom);
    echoToFerry(port, Blobs.of(size), mtom);
  }

  @ParameterizedTest(name = "12 MiB, MTOM {0}")
  @ValueSource(booleans = {true, false})
  void cxfClientToFerryServerTwelveMebibytes(boolean mtom) {
    TestMtomPort port = CxfPeer.client(clientBus, brokered("/ferry", mtom), mtom);
    echoToFerry(port, Blobs.of(Blobs.LARGE), mtom);
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void metroClientToFerryServer(int size, boolean mtom) {
    echoToFerry(MetroPeer.client(brokered("/ferry", mtom), mtom), Blobs.of(size), mtom);
  }

  static Stream<Arguments> smallAndLargeInBothModes() {
    return Stream.of(true, false).flatMap(mtom -> Stream.of(0, Blobs.MIB)
        .map(size -> Arguments.of(size, mtom)));
  }

  /** No Ferry endpoint at either end: the broker alone stands between CXF and CXF. */
  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource("smallAndLargeInBothModes")
  void cxfClientToCxfServer(int size, boolean mtom) {
    TestMtomPort port = CxfPeer.client(clientBus, brokered("/cxf", mtom), mtom);
    byte[] blob = Blobs.of(size);
    assertEcho(JaxWsEcho.call(port, Blobs.NAME, blob), blob, mtom);
    WireAssertions.assertMtom(cxfServer.implementation(mtom).lastRequestContentType(), mtom);
  }

  /** Metro at both ends, the broker between. */
  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource("smallAndLargeInBothModes")
  void metroClientToMetroServer(int size, boolean mtom) {
    TestMtomPort port = MetroPeer.client(brokered("/metro", mtom), mtom);
    byte[] blob = Blobs.of(size);
    assertEcho(JaxWsEcho.call(port, Blobs.NAME, blob), blob, mtom);
    WireAssertions.assertMtom(metroServer.implementation(mtom).lastRequestContentType(), mtom);
  }

  static Stream<Arguments> peersAndStatuses() {
    return Stream.of("cxf", "metro").flatMap(peer -> Stream.of("http", "soap")
        .map(status -> Arguments.of(peer, status)));
  }

  /**
   * CXF's and Metro's clients past a route's rate: a 503 they report as a transport error with
   * its status (the fault in its body unread), so a route may answer with the SOAP binding's
   * status instead, and then they raise the fault, reason and all.
   */
  @ParameterizedTest(name = "{0}, status: {1}")
  @MethodSource("peersAndStatuses")
  void peersPastARouteLimit(String peer, String status) throws IOException {
    try (Broker limited = Broker.builder().codec(FerryPeer.CODEC).routes(Routes.parse(
        "routes:\n  - { path: /limited, to: \"" + ferryServer.uri() + "\","
        + " limits: {rate: 1/h, burst: 2, status: " + status + "} }\n")).build().start()) {
      TestMtomPort port = peer.equals("metro") ? MetroPeer.client(limited.uri("/limited"), true)
          : CxfPeer.client(clientBus, limited.uri("/limited"), true);
      byte[] blob = Blobs.of(5000);
      for (int i = 0; i < 2; i++) {
        assertEcho(JaxWsEcho.call(port, Blobs.NAME, blob), blob, true);
      }
      if (status.equals("soap")) {
        assertThatThrownBy(() -> JaxWsEcho.call(port, Blobs.NAME, blob))
            .isInstanceOfSatisfying(SOAPFaultException.class, e -> assertThat(
                e.getFault().getFaultString()).matches("too many requests: /limited takes 1"
                + " request an hour \\(RouteLimits.rate\\); try again in 3(599|600) s"));
      } else {
        assertThatThrownBy(() -> JaxWsEcho.call(port, Blobs.NAME, blob))
            .isInstanceOf(WebServiceException.class)
            .isNotInstanceOf(SOAPFaultException.class)
            .satisfies(e -> assertThat(e.toString() + e.getCause()).contains("503"));
      }
    }
  }

  private static void echoToFerry(TestMtomPort port, byte[] blob, boolean mtom) {
    assertEcho(JaxWsEcho.call(port, Blobs.NAME, blob), blob, mtom);
    FerryPeer.Arrival arrival = ferryServer.lastArrival();
    assertThat(arrival.brokered()).as("came through the broker").isTrue();
    WireAssertions.assertMtom(arrival.contentType(), mtom);
    assertThat(arrival.attached()).as("blob still an xop:Include").isEqualTo(mtom);
  }

  private static void assertEcho(EchoReply reply, byte[] blob, boolean mtom) {
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo(), blob);
    WireAssertions.assertMtom(reply.contentType(), mtom);
  }
}
