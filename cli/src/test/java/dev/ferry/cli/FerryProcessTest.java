package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ferry.testkit.OtlpReceiver;
import dev.ferry.testkit.OtlpReceiver.ReceivedSpan;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ferry} as a process of its own, started the way the launcher starts it (its main
 * class, this build's class path): exit codes through System.exit, real stdout and stderr, and
 * a server stopped by a signal.
 */
class FerryProcessTest {
  @TempDir Path dir;

  private static ProcessBuilder ferryProcess(String... args) {
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"), Ferry.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  @Test
  void exitCodesAndOutputReachTheShell() throws Exception {
    Process completion = ferryProcess("completion").redirectError(dir.resolve("err").toFile())
        .start();
    String script = new String(completion.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    assertThat(completion.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(completion.exitValue()).isZero();
    assertThat(script).contains("complete -F _complete_ferry").contains("demo");

    Process missing = ferryProcess("mime", "inspect", dir.resolve("none.eml").toString())
        .redirectOutput(dir.resolve("out").toFile()).start();
    String err = new String(missing.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(missing.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(missing.exitValue()).isEqualTo(4);
    assertThat(err).startsWith("ferry: no such file: ").doesNotContain("\tat ");
  }

  @Test
  void serveExportsASpanPerRequestOverOtlpWhenTheEnvironmentAsks() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      ProcessBuilder pb = ferryProcess("serve", "--port", "0")
          .redirectError(dir.resolve("serve.log").toFile());
      pb.environment().put("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint().toString());
      // no protocol set: the endpoint alone, as docs/operations.md shows it
      pb.environment().put("OTEL_BSP_SCHEDULE_DELAY", "100");
      Process serve = pb.start();
      try {
        BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(),
            StandardCharsets.UTF_8));
        String first = out.readLine();
        String url = first.substring("echo service at ".length());
        assertThat(ferry("send", "--url", url, "--size", "10K").exit()).isZero();
        serve.destroy(); // the spans not yet exported are flushed as it stops
        assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
        ReceivedSpan span = receiver.awaitSpans(1, Duration.ofSeconds(10)).get(0);
        assertThat(span.service()).isEqualTo("ferry-serve");
        assertThat(span.kind()).isEqualTo("SERVER");
        assertThat(span.attributes()).containsEntry("rpc.method", "testMtom")
            .containsEntry("url.path", "/echo").containsEntry("http.response.status_code", 200L);
      } finally {
        serve.destroyForcibly();
      }
    }
  }

  @Test
  void serveLogsOneLinePerRequestAndStopsOnSigterm() throws Exception {
    // To a file: destroy() closes the process's pipes, and the log is read after it. The
    // lines go out in batches; what is left when the signal comes is written as it stops.
    Path log = dir.resolve("serve.log");
    Process serve = ferryProcess("serve", "--port", "0", "--log-messages")
        .redirectError(log.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(),
          StandardCharsets.UTF_8));
      String first = out.readLine();
      assertThat(first).startsWith("echo service at http://127.0.0.1:");
      String url = first.substring("echo service at ".length());
      assertThat(ferry("send", "--url", url, "--size", "10K").exit()).isZero();
      serve.destroy(); // SIGTERM, which runs the shutdown hook as Ctrl-C's SIGINT does
      assertThat(serve.waitFor(30, TimeUnit.SECONDS)).as("stopped by the signal").isTrue();
      assertThat(Files.readString(log)).containsPattern(
          "(?m)^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d INFO 127\\.0\\.0\\.1 \"POST /echo\" 200 ")
          .containsPattern("(?m) INFO request 1 POST /echo from 127\\.0\\.0\\.1$")
          .containsPattern("(?m) INFO reply 1 200$").doesNotContain("SLF4J");
    } finally {
      serve.destroyForcibly();
    }
  }

  @Test
  void brokerReloadsItsRoutesOnSighupAndKeepsThemWhenTheFileIsWrong() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(
        Path.of("/usr/bin/kill")), "no kill command to send SIGHUP with");
    Path routes = dir.resolve("routes.yaml");
    Files.writeString(routes, faultRoute("first table"));
    Path log = dir.resolve("broker.log");
    Process broker = ferryProcess("broker", "--routes", routes.toString(), "--port", "0")
        .redirectError(log.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(broker.getInputStream(),
          StandardCharsets.UTF_8));
      String first = out.readLine();
      assertThat(first).startsWith("broker at http://127.0.0.1:");
      URI base = URI.create(first.substring("broker at ".length(), first.indexOf(',')));
      assertThat(post(base.resolve("/echo"))).contains("first table");

      Files.writeString(routes, faultRoute("second table"));
      hangup(broker);
      awaitTrue(() -> post(base.resolve("/echo")).contains("second table"));

      Files.writeString(routes, "routes:\n  - path: /echo\n    to: http://127.0.0.1:1/echo\n"
          + "    fault: {reason: both}\n"); // forwards and answers a fault: line 4 is wrong
      hangup(broker);
      awaitTrue(() -> Files.readString(log).contains("routes not reloaded"));
      assertThat(Files.readString(log)).contains(routes + ": line 4");
      assertThat(post(base.resolve("/echo"))).contains("second table");
      assertThat(get(base.resolve("/metrics")))
          .contains("ferry_broker_route_reloads_total{result=\"ok\"} 1.0")
          .contains("ferry_broker_route_reloads_total{result=\"failed\"} 1.0");
      broker.destroy();
      assertThat(broker.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      broker.destroyForcibly();
    }
  }

  private static String faultRoute(String reason) {
    return "routes:\n  - path: /echo\n    fault: {code: Sender, reason: " + reason + "}\n";
  }

  private static void hangup(Process p) throws Exception {
    Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).start();
    assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  private static String post(URI url) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(url).header("Content-Type", "text/xml")
          .header("SOAPAction", "\"\"").POST(HttpRequest.BodyPublishers.ofString(
              "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
              + "<t:echo xmlns:t=\"urn:t\"/></s:Body></s:Envelope>")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    }
  }

  private static String get(URI url) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(url).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    }
  }

  /** Polls {@code condition} for up to 20 s. */
  private static void awaitTrue(Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.call()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s");
      }
      Thread.sleep(20);
    }
  }
}
