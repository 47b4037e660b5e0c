package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A call's own options: headers, credentials, timeout; and the reply's headers. */
class SoapRequestTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final URI ANY = URI.create("http://127.0.0.1:1/x");

  private static Payload ping() {
    return CODEC.payload(SoapVersion.SOAP_11, MtomPolicy.NEVER, List.of(), w -> {
      w.writeStartElement("ping");
      w.writeEndElement();
    });
  }

  /** An endpoint that answers with the request's HTTP headers it was asked about. */
  private static Dispatcher headerEcho() {
    return Dispatcher.builder().fallback(new Endpoint() {
      @Override
      public Payload handle(Message request) {
        throw new UnsupportedOperationException();
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) {
        StringBuilder seen = new StringBuilder();
        for (String name : List.of("Authorization", "X-Trace", "SOAPAction")) {
          for (String v : Collections.list(http.getHeaders(name))) {
            seen.append(name).append('=').append(v).append(';');
          }
        }
        return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), w -> {
          w.writeStartElement("seen");
          w.writeCharacters(seen.toString());
          w.writeEndElement();
        });
      }
    }).build();
  }

  private static String seen(SoapResponse r) throws IOException {
    String body = r.message().body().utf8();
    return body.substring(body.indexOf("<seen>") + 6, body.indexOf("</seen>"));
  }

  @Test
  void headersAndCredentialsReachTheServer() throws IOException {
    try (SoapServer server = SoapServer.builder().endpoint("/h", headerEcho()).build().start();
        SoapClient client = SoapClient.create()) {
      SoapRequest request = SoapRequest.builder(server.uri("/h"), ping())
          .soapAction("urn:a").basicAuth("alice", "wönderland")
          .header("X-Trace", "one").header("X-Trace", "two").build();
      try (SoapResponse r = client.call(request)) {
        String basic = Base64.getEncoder().encodeToString(
            "alice:wönderland".getBytes(StandardCharsets.UTF_8));
        assertThat(seen(r)).isEqualTo("Authorization=Basic " + basic
            + ";X-Trace=one;X-Trace=two;SOAPAction=\"urn:a\";");
      }
      try (SoapResponse r = client.call(SoapRequest.builder(server.uri("/h"), ping())
          .basicAuth("x", "y").bearerToken("abc.DEF-123_~+/=").build())) {
        assertThat(seen(r)).isEqualTo("Authorization=Bearer abc.DEF-123_~+/=;");
      }
      try (SoapResponse r = client.call(server.uri("/h"), ping(), null)) {
        assertThat(seen(r)).isEmpty(); // the short form sends none of them
      }
    }
  }

  @Test
  void theBuilderRefusesWhatTheClientWritesItselfAndBrokenHeaders() {
    SoapRequest.Builder b = SoapRequest.builder(ANY, ping());
    for (String name : List.of("Host", "content-length", "Transfer-Encoding", "Content-Type",
        "Connection")) {
      assertThatThrownBy(() -> b.header(name, "x")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("the client writes " + name + " itself");
    }
    assertThatThrownBy(() -> b.header("SOAPAction", "x")).hasMessageContaining("soapAction(");
    assertThatThrownBy(() -> b.header("X-A", "1\r\nX-Injected: 2"))
        .hasMessageContaining("line break");
    assertThatThrownBy(() -> b.header("Bad Name", "1")).hasMessageContaining("header name");
    assertThatThrownBy(() -> b.basicAuth("a:b", "c")).hasMessageContaining("':'");
    assertThatThrownBy(() -> b.bearerToken("a b")).hasMessageContaining("token68");
    assertThatThrownBy(() -> b.timeout(Duration.ZERO)).hasMessageContaining("positive");
    assertThatThrownBy(() -> SoapRequest.builder(URI.create("ftp://h/x"), ping()))
        .hasMessageContaining("http:// or https://");
  }

  @Test
  void theReplyCarriesAllItsHeaders() throws IOException {
    try (CannedServer server = new CannedServer(CannedServer.soapReply(
        "Set-Cookie: a=1\r\nset-cookie: b=2\r\nX-Served-By: canned\r\n"));
        SoapClient client = SoapClient.create();
        SoapResponse r = client.call(URI.create("http://127.0.0.1:" + server.port() + "/"),
            ping(), null)) {
      Map<String, List<String>> h = r.headers();
      assertThat(h.get("SET-COOKIE")).containsExactly("a=1", "b=2");
      assertThat(h.get("x-served-by")).containsExactly("canned");
      assertThat(h).containsKeys("Content-Type", "Content-Length");
      assertThat(r.header("content-type")).isEqualTo("text/xml; charset=UTF-8");
      assertThatThrownBy(() -> h.put("x", List.of())).isInstanceOf(
          UnsupportedOperationException.class);
      assertThat(r.message().body().utf8()).contains("<ok/>");
    }
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void aCallsOwnTimeoutWinsOverTheClients() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        SoapClient client = SoapClient.builder().timeout(Duration.ofSeconds(60)).build()) {
      Thread.ofVirtual().start(() -> {
        while (true) {
          try {
            Socket c = s.accept();
            Thread.ofVirtual().start(() -> {
              try (c; InputStream in = c.getInputStream()) {
                in.transferTo(java.io.OutputStream.nullOutputStream()); // never answers
              } catch (IOException ignored) {
                // the client gave up
              }
            });
          } catch (IOException e) {
            return;
          }
        }
      });
      URI uri = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/slow");
      long start = System.nanoTime();
      assertThatThrownBy(() -> client.call(SoapRequest.builder(uri, ping())
          .timeout(Duration.ofMillis(300)).build()))
          .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("300 ms")
          .hasMessageContaining(uri.toString());
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
      assertThat(client.callAsync(SoapRequest.builder(uri, ping())
          .timeout(Duration.ofMillis(300)).build())).failsWithin(10, TimeUnit.SECONDS)
          .withThrowableThat().withCauseInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void asyncCallsNeedNoThreadEach() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
        .build().start(); SoapClient client = SoapClient.create()) {
      int calls = 200;
      List<java.util.concurrent.CompletableFuture<String>> names = new java.util.ArrayList<>();
      long threadsBefore = threadsOutsideTheServer();
      for (int i = 0; i < calls; i++) {
        Payload p = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.ALWAYS,
            "n" + i, dev.ferry.bytes.ByteString.encodeUtf8("blob " + i));
        names.add(client.callAsync(SoapRequest.builder(server.uri("/echo"), p).build())
            .thenApply(r -> {
              try (r) {
                // a short reply is parsed and completed on the client's event loop
                assertThat(Thread.currentThread().getName()).startsWith("ferry-client");
                EchoService.Echo e = EchoService.readEcho(r.message());
                return e.name() + "=" + e.attachinfo().utf8();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            }));
      }
      assertThat(threadsOutsideTheServer() - threadsBefore).isLessThan(20);
      for (int i = 0; i < calls; i++) {
        assertThat(names.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("n" + i + "=blob " + i);
      }
    }
  }

  /**
   * Live platform threads but the test server's pool ("ferry-http"), which grows with the
   * requests in flight and is not what the client needs.
   */
  private static long threadsOutsideTheServer() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> !t.getName().startsWith("ferry-http")).count();
  }

  @Test
  void asyncCallsStreamLongRepliesAndFailLikeBlockingOnes() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
        .build().start(); SoapClient client = SoapClient.create()) {
      byte[] blob = dev.ferry.testkit.Blobs.random(3_000_000, 7);
      Payload p = EchoService.request(CODEC, SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "big",
          dev.ferry.bytes.ByteString.of(blob));
      try (SoapResponse r = client.callAsync(SoapRequest.builder(server.uri("/echo"), p).build())
          .get(20, TimeUnit.SECONDS)) {
        assertThat(EchoService.readEcho(r.message()).attachinfo().toByteArray()).isEqualTo(blob);
      }
      assertThat(client.callAsync(SoapRequest.builder(server.uri("/nothing-here"), ping())
          .build())).failsWithin(10, TimeUnit.SECONDS).withThrowableThat()
          .withCauseInstanceOf(SoapHttpException.class).withMessageContaining("404");
      int free;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        free = s.getLocalPort();
      }
      assertThat(client.callAsync(SoapRequest.builder(URI.create("http://127.0.0.1:" + free
          + "/x"), ping()).build())).failsWithin(10, TimeUnit.SECONDS).withThrowableThat()
          .withCauseInstanceOf(java.net.ConnectException.class);
    }
  }
}
