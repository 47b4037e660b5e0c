package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.cxf.Bus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CXF's JAX-WS client against CXF's JAX-WS server: the baseline every Ferry test is held to. */
class CxfEchoTest {
  private static CxfPeer.EchoServer server;
  private static Bus clientBus;

  @BeforeAll
  static void start() {
    server = new CxfPeer.EchoServer();
    clientBus = CxfPeer.newBus();
  }

  @AfterAll
  static void stop() {
    clientBus.shutdown(true);
    server.close();
  }

  @ParameterizedTest(name = "{0} bytes, MTOM {1}")
  @MethodSource(Blobs.SIZES_AND_MODES)
  void echoesTheSameBytes(int size, boolean mtom) {
    echo(Blobs.of(size), mtom);
  }

  @ParameterizedTest(name = "12 MiB, MTOM {0}")
  @ValueSource(booleans = {true, false})
  void echoesTwelveMebibytes(boolean mtom) {
    echo(Blobs.of(Blobs.LARGE), mtom);
  }

  private static void echo(byte[] blob, boolean mtom) {
    TestMtomPort port = CxfPeer.client(clientBus, server.uri(mtom), mtom);
    EchoReply reply = JaxWsEcho.call(port, Blobs.NAME, blob);
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo(), blob);
    WireAssertions.assertMtom(server.implementation(mtom).lastRequestContentType(), mtom);
    WireAssertions.assertMtom(reply.contentType(), mtom);
  }
}
