package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a caller of the client is told when a call cannot be made or does not finish. */
class ClientFailuresTest {
  private static final SoapCodec CODEC = SoapCodec.create();

  private static Payload request(MtomPolicy policy) {
    return EchoService.request(CODEC, SoapVersion.SOAP_11, policy, "x",
        ByteString.encodeUtf8("abc"));
  }

  @Test
  void aServerThatIsDownIsNamedWithItsUrl() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/echo");
    try (SoapClient client = SoapClient.create()) {
      assertThatThrownBy(() -> client.call(uri, request(MtomPolicy.NEVER), null))
          .isInstanceOf(ConnectException.class)
          .hasMessageContaining("cannot connect to " + uri)
          .hasMessageNotContaining("null");
    }
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void aServerThatNeverAnswersTimesOutNamingTheUrl() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        SoapClient client = SoapClient.builder().timeout(Duration.ofMillis(500)).build()) {
      Thread.ofVirtual().start(() -> {
        try (Socket c = s.accept(); InputStream in = c.getInputStream()) {
          in.transferTo(java.io.OutputStream.nullOutputStream()); // reads, never answers
        } catch (IOException ignored) {
          // the client gave up
        }
      });
      URI uri = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/slow");
      long start = System.nanoTime();
      assertThatThrownBy(() -> client.call(uri, request(MtomPolicy.NEVER), null))
          .isInstanceOf(SocketTimeoutException.class)
          .hasMessageContaining("no progress for 500 ms").hasMessageContaining(uri.toString());
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void aPayloadSentTwiceSaysItIsWrittenOnce() throws IOException {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
            .build().start();
        SoapClient client = SoapClient.create()) {
      Payload once = request(MtomPolicy.ALWAYS);
      try (SoapResponse r = client.call(server.uri("/echo"), once, null)) {
        assertThat(r.status()).isEqualTo(200);
      }
      assertThatThrownBy(() -> client.call(server.uri("/echo"), once, null))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("written once");
      // and the client goes on working
      try (SoapResponse r = client.call(server.uri("/echo"), request(MtomPolicy.ALWAYS), null)) {
        assertThat(r.status()).isEqualTo(200);
      }
    }
  }
}
