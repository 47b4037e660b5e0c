package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A group marked {@code gatesReadiness} makes {@code /health/ready} answer 503 while every one
 * of its members is suspended, naming the group, and 200 again once one is back; a group not so
 * marked leaves readiness alone, whatever its members' health.
 */
class BrokerReadinessTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final Duration WAIT = Duration.ofSeconds(10);
  @AutoClose
  final Closer open = new Closer();
  @AutoClose
  final HttpClient http = HttpClient.newHttpClient();
  private final SoapClient client = open.keep(SoapClient.builder()
      .timeout(Duration.ofSeconds(10)).build());

  @Test
  void readinessFailsWhileEveryMemberOfAGatingGroupIsSuspended() throws Exception {
    int portA = freePort();
    int portB = freePort();
    SoapServer a = echo(portA);
    SoapServer b = echo(portB);
    int dead = freePort();
    // suspended for a minute unless a check (every 100 ms) finds the member back
    Broker broker = open.keep(Broker.builder().routes(Routes.parse("groups:\n"
        + "  g:\n    gatesReadiness: true\n    suspend: {initial: 60s}\n"
        + "    check: {every: 100ms, path: /health, timeout: 1s}\n"
        + "    members: [" + at(portA) + ", " + at(portB) + "]\n"
        + "  other:\n    suspend: {initial: 60s}\n    members: [" + at(dead) + "]\n"
        + "routes:\n  - {path: /echo, group: g}\n  - {path: /other, group: other}\n"))
        .build().start());
    assertThat(ready(broker).statusCode()).isEqualTo(200);
    assertThat(call(broker, "/echo")).isNull();

    // a group that does not gate readiness: all its members suspended, the broker still ready
    assertThat(call(broker, "/other")).contains("unavailable");
    await(() -> BrokerGroupsTest.metric(broker, "ferry_broker_member_available",
        "member=\"" + at(dead)) == 0);
    assertThat(ready(broker).statusCode()).isEqualTo(200);

    a.close();
    b.close(); // both refuse connections now
    assertThat(call(broker, "/echo")).startsWith("Server: the service behind /echo is");
    await(() -> ready(broker).statusCode() == 503);
    HttpResponse<String> down = ready(broker);
    assertThat(down.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"every member of g is"
        + " suspended\"}\n");
    assertThat(call(broker, "/echo")).contains("every member of g is suspended");
    assertThat(ready(broker).statusCode()).isEqualTo(503); // and stays so

    open.keep(echo(portB)); // one member back: its check brings it back, and readiness
    await(() -> ready(broker).statusCode() == 200);
    assertThat(call(broker, "/echo")).isNull();
  }

  @Test
  void aGroupThatNeverSuspendsCannotGateReadiness() {
    assertThatThrownBy(() -> Routes.parse("groups:\n  g:\n    gatesReadiness: true\n"
        + "    suspend: never\n    members: [http://127.0.0.1:1/x]\n"
        + "routes:\n  - {path: /x, group: g}\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 3: groups.g")
        .hasMessageContaining("gates readiness, but its members are never suspended");
  }

  private SoapServer echo(int port) throws IOException {
    return SoapServer.builder().port(port).endpoint("/echo", EchoService.dispatcher()).build()
        .start();
  }

  private static URI at(int port) {
    return URI.create("http://127.0.0.1:" + port + "/echo");
  }

  /** One echo; null if it came back whole, else the fault's code and reason. */
  private String call(Broker broker, String path) throws IOException {
    ByteString blob = ByteString.of(new byte[100]);
    try (SoapResponse r = client.call(broker.uri(path), EchoService.request(CODEC,
        SoapVersion.SOAP_11, MtomPolicy.NEVER, "r", blob), null)) {
      if (r.isFault()) {
        return r.fault().code().getLocalPart() + ": " + r.fault().reason();
      }
      assertThat(EchoService.readEcho(r.message()).attachinfo()).isEqualTo(blob);
      return null;
    }
  }

  private HttpResponse<String> ready(Broker broker) {
    try {
      return http.send(HttpRequest.newBuilder(broker.uri("/health/ready")).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void await(Condition c) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!c.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT);
      }
      Thread.sleep(20);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
