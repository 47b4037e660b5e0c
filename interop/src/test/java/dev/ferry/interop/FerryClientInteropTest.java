package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.client.SoapClient;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ferry's client against CXF's and Metro's JAX-WS servers: Ferry sends, the peers read and
 * answer, Ferry reads the peers' answers.
 */
class FerryClientInteropTest {
  private static CxfPeer.EchoServer cxfServer;
  private static MetroPeer.EchoServer metroServer;
  private static SoapClient client;

  @BeforeAll
  static void start() {
    cxfServer = new CxfPeer.EchoServer();
    metroServer = new MetroPeer.EchoServer();
    client = FerryPeer.client();
  }

  @AfterAll
  static void stop() {
    client.close();
    metroServer.close();
    cxfServer.close();
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void toCxfServer(int size, boolean mtom) throws IOException {
    echo(cxfServer.uri(mtom), cxfServer.implementation(mtom), Blobs.of(size), mtom);
  }

  @ParameterizedTest(name = "12 MiB, MTOM {0}")
  @ValueSource(booleans = {true, false})
  void toCxfServerTwelveMebibytes(boolean mtom) throws IOException {
    echo(cxfServer.uri(mtom), cxfServer.implementation(mtom), Blobs.of(Blobs.LARGE), mtom);
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void toMetroServer(int size, boolean mtom) throws IOException {
    echo(metroServer.uri(mtom), metroServer.implementation(mtom), Blobs.of(size), mtom);
  }

  @ParameterizedTest(name = "12 MiB, MTOM {0}")
  @ValueSource(booleans = {true, false})
  void toMetroServerTwelveMebibytes(boolean mtom) throws IOException {
    echo(metroServer.uri(mtom), metroServer.implementation(mtom), Blobs.of(Blobs.LARGE), mtom);
  }

  private static void echo(URI uri, EchoPortImpl peer, byte[] blob, boolean mtom)
      throws IOException {
    EchoReply reply = FerryPeer.call(client, uri, mtom, Blobs.NAME, blob);
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo(), blob);
    WireAssertions.assertMtom(peer.lastRequestContentType(), mtom);
    WireAssertions.assertMtom(reply.contentType(), mtom);
  }
}
