package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import dev.ferry.logging.MessageLog;
import dev.ferry.testkit.LogCapture;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ferry serve}, {@code ferry broker} and {@code ferry send} together on loopback. */
class NetworkCommandsCliTest {
  @TempDir Path dir;

  @Test
  void sendEchoesAGeneratedBlobThroughServeAndStopsOnInterrupt() throws Exception {
    try (RunningFerry serve = new RunningFerry("serve", "--port", "0")) {
      String url = serve.awaitUrl("echo service at ");
      assertThat(url).endsWith("/echo");
      Result mtom = ferry("send", "--url", url, "--size", "300K");
      assertThat(mtom.exit()).as(mtom.err()).isZero();
      assertThat(mtom.out()).contains("sent    300 KiB (307200 bytes) as MTOM attachment")
          .contains("reply   HTTP 200, multipart/related")
          .contains("echo    name 'ferry send', 307200 bytes, identical");
      Result base64 = ferry("send", "--url", url, "--size", "1000", "--no-mtom", "--soap12",
          "--name", "n\u00e4me", "--json");
      assertThat(base64.exit()).as(base64.err()).isZero();
      assertThat(base64.out()).startsWith("{\"url\":\"" + url + "\",\"encoding\":\"base64\"")
          .contains("\"soapVersion\":\"1.2\"").contains("\"blobBytes\":1000")
          .contains("\"status\":200,\"contentType\":\"application/soap+xml")
          .contains("\"echoedName\":\"n\u00e4me\",\"echoedBytes\":1000")
          .contains("\"intact\":true");
      // the SOAPAction from the service's own WSDL, and CXF's sample's operation
      Result fromWsdl = ferry("send", "--url", url, "--size", "2K", "--wsdl", url + "?wsdl");
      assertThat(fromWsdl.exit()).as(fromWsdl.err()).isZero();
      Result cxfSample = ferry("send", "--url", url, "--size", "2K", "--operation",
          "testDataHandler", "--soap-action", "");
      assertThat(cxfSample.exit()).as(cxfSample.err()).isZero();
      assertThat(cxfSample.out()).contains("identical");
      Result unbound = ferry("send", "--url", url, "--size", "2K", "--operation", "nope",
          "--wsdl", url + "?wsdl");
      assertThat(unbound.exit()).isEqualTo(2);
      assertThat(unbound.err()).contains("binds no operation nope").contains("testMtom");
      assertThat(serve.stop()).isZero();
      assertThat(serve.out()).contains("Ctrl-C stops it.").endsWith("stopped\n");
    }
  }

  @Test
  void serveRunsTheEndpointsOfAConfigFile() throws Exception {
    Files.writeString(dir.resolve("reply.xml"), "<s:Envelope xmlns:s=\"http://schemas.xmlsoap"
        + ".org/soap/envelope/\"><s:Body><t:testMtomResponse xmlns:t=\"http://cxf.apache.org/"
        + "mime/types\"><t:name>canned</t:name><t:attachinfo>AAEC</t:attachinfo>"
        + "</t:testMtomResponse></s:Body></s:Envelope>");
    Path config = Files.writeString(dir.resolve("endpoints.yaml"),
        "endpoints:\n  - path: /mock\n    reply: reply.xml\n  - path: /echo\n"
        + "    service: echo\n");
    try (RunningFerry serve = new RunningFerry("serve", "--port", "0", "--config",
        config.toString())) {
      String mock = serve.awaitUrl("endpoint at ");
      assertThat(mock).endsWith("/mock");
      Result canned = ferry("send", "--url", mock, "--size", "3", "--no-mtom");
      assertThat(canned.out()).contains("name 'canned', 3 bytes");
      Result echo = ferry("send", "--url", mock.replace("/mock", "/echo"), "--size", "5K");
      assertThat(echo.exit()).as(echo.err()).isZero();
      assertThat(serve.stop()).isZero();
    }
    Result bad = ferry("serve", "--port", "0", "--config", dir.resolve("none.yaml").toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--config").contains("none.yaml");
  }

  @Test
  void sendStreamsAFileAndTheBrokerForwardsIt() throws Exception {
    byte[] content = new byte[2_000_000];
    new Random(7).nextBytes(content);
    Path file = Files.write(dir.resolve("photo.bin"), content);
    try (RunningFerry serve = new RunningFerry("serve", "--port", "0", "--path", "/svc/echo")) {
      String backend = serve.awaitUrl("echo service at ");
      Path routes = Files.writeString(dir.resolve("routes.yaml"),
          "timeout: 10s\nroutes:\n  - path: /echo\n    to: " + backend + "\n");
      try (RunningFerry broker = new RunningFerry("broker", "--routes", routes.toString(),
          "--port", "0")) {
        String brokered = broker.awaitUrl("  ");
        assertThat(broker.out()).contains("-> " + backend).contains("timeout 10 s");
        for (String mtom : new String[] {"--mtom", "--no-mtom"}) {
          Result r = ferry("send", "--url", brokered, file.toString(), mtom);
          assertThat(r.exit()).as(r.err()).isZero();
          assertThat(r.out()).contains("2000000 bytes, identical");
        }
        assertThat(broker.stop()).isZero();
      }
    }
  }

  @Test
  void sendFailuresSayWhatWentWrongWithTheirExitCodes() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Result refused = ferry("send", "--url", "http://127.0.0.1:" + closedPort + "/echo",
        "--size", "1K");
    assertThat(refused.exit()).isEqualTo(4);
    assertThat(refused.err()).contains("cannot connect to http://127.0.0.1:" + closedPort)
        .doesNotContain("\tat ");
    try (RunningFerry serve = new RunningFerry("serve", "--port", "0", "--max-root", "64K")) {
      String url = serve.awaitUrl("echo service at ");
      Result notFound = ferry("send", "--url", url.replace("/echo", "/nothing"), "--size", "1K");
      assertThat(notFound.exit()).isEqualTo(5);
      assertThat(notFound.err()).containsPattern("HTTP 40[45] from ").contains("not a SOAP reply");
      Result tooBig = ferry("send", "--url", url, "--size", "100K", "--no-mtom");
      assertThat(tooBig.exit()).isEqualTo(5);
      assertThat(tooBig.err()).contains("SOAP fault").contains("maxRootBytes")
          .contains("--max-root").doesNotContain("\tat ");
      Result attached = ferry("send", "--url", url, "--size", "100K");
      assertThat(attached.exit()).as("attachments do not count against the envelope's limit")
          .isZero();
    }
  }

  @Test
  void serveLogsMessagesForSupportWhenAsked() throws Exception {
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER);
        RunningFerry serve = new RunningFerry("serve", "--port", "0", "--log-messages",
            "--log-messages-max", "2K", "--mask-headers", "X-Session")) {
      String url = serve.awaitUrl("echo service at ");
      assertThat(ferry("send", "--url", url, "--size", "5K").exit()).isZero();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (logs.messages().stream().noneMatch(r -> r.startsWith("reply "))
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      // the request (its attachment with it, or in a record of its own once read), the reply
      String requests = String.join("\n", logs.messages().stream()
          .filter(r -> r.startsWith("request 1 POST /echo from ")).toList());
      assertThat(requests).contains("<t:name>ferry send</t:name>")
          .containsPattern("\nattachment <[^>]+> application/octet-stream 5120 bytes");
      assertThat(logs.messages()).filteredOn(r -> r.startsWith("reply 1 200")).singleElement()
          .asString().contains("<t:testMtomResponse").contains("attachment <");
    }
    assertThat(ferry("serve", "--log-messages", "--mask-names", "a b").err())
        .contains("--mask-names: not an element or attribute name: \"a b\"");
  }

  @Test
  void brokerLogsMessagesForSupportWhenAsked() throws Exception {
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER);
        RunningFerry serve = new RunningFerry("serve", "--port", "0")) {
      String backend = serve.awaitUrl("echo service at ");
      Path routes = Files.writeString(dir.resolve("logged.yaml"),
          "routes:\n  - path: /echo\n    to: " + backend + "\n");
      try (RunningFerry broker = new RunningFerry("broker", "--routes", routes.toString(),
          "--port", "0", "--log-messages", "--log-messages-max", "2K")) {
        String brokered = broker.awaitUrl("  ");
        assertThat(ferry("send", "--url", brokered, "--size", "5K").exit()).isZero();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (logs.messages().stream().noneMatch(r -> r.startsWith("broker reply "))
            && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
        assertThat(logs.messages()).filteredOn(r -> r.startsWith("broker request 1 POST /echo"))
            .singleElement().asString().contains("<t:name>ferry send</t:name>")
            .containsPattern("\nattachment <[^>]+> application/octet-stream 5120 bytes");
        assertThat(logs.messages()).filteredOn(r -> r.startsWith("broker reply 1 200"))
            .singleElement().asString().contains("<t:testMtomResponse");
      }
    }
  }

  @Test
  void usageErrorsAreShortAndExitWith2() throws Exception {
    Result neither = ferry("send", "--url", "http://127.0.0.1:1/echo");
    assertThat(neither.exit()).isEqualTo(2);
    assertThat(neither.err()).isEqualTo(
        "ferry: give either a FILE or --size (a generated blob), not neither\n"
            + "Try 'ferry send --help'.\n");
    Path f = Files.writeString(dir.resolve("f"), "x");
    assertThat(ferry("send", "--url", "http://h/echo", "--size", "1K", f.toString()).err())
        .contains("not both");
    assertThat(ferry("send", "--url", "ftp://h/echo", "--size", "1K").err())
        .contains("--url must be http:// or https://");
    assertThat(ferry("serve", "--port", "70000").exit()).isEqualTo(2);
    assertThat(ferry("serve", "--path", "echo").err()).contains("--path must start with /");
  }

  @Test
  void brokerRoutesFileErrorsNameTheProblem() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.yaml"), "routes:\n  - path: /echo\n");
    Result r = ferry("broker", "--routes", bad.toString(), "--port", "0");
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.err()).contains("bad.yaml").contains("routes[0].to").doesNotContain("\tat ");
    Result missing = ferry("broker", "--routes", dir.resolve("none.yaml").toString());
    assertThat(missing.exit()).isEqualTo(4);
    assertThat(missing.err()).contains("no such file");
  }

  @Test
  void helpShowsExamples() {
    for (String command : new String[] {"serve", "broker", "send"}) {
      Result r = ferry(command, "--help");
      assertThat(r.exit()).isZero();
      assertThat(r.out()).as(command).contains("Examples:").contains("ferry " + command);
    }
    assertThat(ferry("broker", "--help").out()).contains("routes:").contains("to: http://");
  }
}
