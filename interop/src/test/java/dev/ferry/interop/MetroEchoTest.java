package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Metro's JAX-WS client against Metro's endpoint on the JDK HTTP server. */
class MetroEchoTest {
  private static MetroPeer.EchoServer server;

  @BeforeAll
  static void start() {
    server = new MetroPeer.EchoServer();
  }

  @AfterAll
  static void stop() {
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
    TestMtomPort port = MetroPeer.client(server.uri(mtom), mtom);
    EchoReply reply = JaxWsEcho.call(port, Blobs.NAME, blob);
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo(), blob);
    WireAssertions.assertMtom(server.implementation(mtom).lastRequestContentType(), mtom);
    WireAssertions.assertMtom(reply.contentType(), mtom);
  }
}
