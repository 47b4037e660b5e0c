package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.apache.cxf.Bus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CXF's client against Metro's server and Metro's client against CXF's: the two peers agree
 * with each other, so a disagreement with Ferry is Ferry's to explain.
 */
class CrossPeerEchoTest {
  private static CxfPeer.EchoServer cxfServer;
  private static MetroPeer.EchoServer metroServer;
  private static Bus clientBus;

  @BeforeAll
  static void start() {
    cxfServer = new CxfPeer.EchoServer();
    metroServer = new MetroPeer.EchoServer();
    clientBus = CxfPeer.newBus();
  }

  @AfterAll
  static void stop() {
    clientBus.shutdown(true);
    metroServer.close();
    cxfServer.close();
  }

  static Stream<Arguments> modesAndSizes() {
    return Stream.of(true, false).flatMap(mtom -> Stream.of(0, Blobs.MIB)
        .map(size -> Arguments.of(size, mtom)));
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource("modesAndSizes")
  void cxfClientToMetroServer(int size, boolean mtom) {
    byte[] blob = Blobs.of(size);
    TestMtomPort port = CxfPeer.client(clientBus, metroServer.uri(mtom), mtom);
    assertEcho(JaxWsEcho.call(port, Blobs.NAME, blob), blob, mtom);
    WireAssertions.assertMtom(metroServer.implementation(mtom).lastRequestContentType(), mtom);
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource("modesAndSizes")
  void metroClientToCxfServer(int size, boolean mtom) {
    byte[] blob = Blobs.of(size);
    TestMtomPort port = MetroPeer.client(cxfServer.uri(mtom), mtom);
    assertEcho(JaxWsEcho.call(port, Blobs.NAME, blob), blob, mtom);
    WireAssertions.assertMtom(cxfServer.implementation(mtom).lastRequestContentType(), mtom);
  }

  private static void assertEcho(EchoReply reply, byte[] blob, boolean mtom) {
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo(), blob);
    WireAssertions.assertMtom(reply.contentType(), mtom);
  }
}
