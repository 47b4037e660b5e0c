package dev.ferry.spring.boot.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.spring.boot.broker.internal.ManagedBroker;
import dev.ferry.xop.MtomPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The broker in an application: routes from properties and from a routes file forward to
 * Ferry's echo service, the listener starts and stops with the application, the health
 * indicator follows it (the drain is BrokerDrainTest's), its spans go to the application's
 * OpenTelemetry, and a wrong route or value fails start-up naming the property.
 */
class BrokerStarterTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private static final SoapCodec CODEC = SoapCodec.create();
  private static SoapServer backend;
  private static SoapClient client;

  @TempDir
  Path dir;

  @BeforeAll
  static void backend() throws Exception {
    backend = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    client = SoapClient.builder().timeout(Duration.ofSeconds(20)).build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    backend.close();
  }

  private static SpringApplicationBuilder app(String... properties) {
    return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
        .properties("spring.main.banner-mode=off").properties(properties);
  }

  private static String echo(URI uri, String name) throws Exception {
    try (SoapResponse r = client.call(uri, EchoService.request(CODEC, SoapVersion.SOAP_11,
        MtomPolicy.ALWAYS, name, ByteString.encodeUtf8("attached")),
        EchoService.SOAP_ACTION)) {
      assertThat(r.status()).isEqualTo(200);
      EchoService.Echo echo = EchoService.readEcho(r.message());
      assertThat(echo.attachinfo()).isEqualTo(ByteString.encodeUtf8("attached"));
      return echo.name();
    }
  }

  @Test
  void routesFromPropertiesForwardAndTheListenerStopsWithTheApplication() throws Exception {
    int port;
    try (ConfigurableApplicationContext context = app(
        "ferry.broker.routes[0].path=/echo",
        "ferry.broker.routes[0].to=" + backend.uri("/echo"),
        "ferry.broker.routes[0].wsa-to=always",
        "management.endpoint.health.show-details=always").run()) {
      ManagedBroker broker = context.getBean(ManagedBroker.class);
      assertThat(echo(broker.uri("/echo"), "via the starter")).isEqualTo("via the starter");
      port = broker.broker().port();
      assertThat(context.getEnvironment().getProperty("local.ferry.broker.port",
          Integer.class)).isEqualTo(port);
      HealthIndicator health = context.getBean("ferryBrokerHealthIndicator",
          HealthIndicator.class);
      var h = health.health(true);
      assertThat(h.getStatus().getCode()).isEqualTo("UP");
      assertThat(h.getDetails().get("routes").toString()).contains("/echo=" + backend.uri(
          "/echo"));
      MeterRegistry boots = context.getBean(MeterRegistry.class);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (broker.broker().inFlight() > 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait(); // the exchange is counted as it ends, after the answer went out
      }
      assertThat(boots.get("ferry.broker.latency").tag("route", "/echo").timer().count())
          .as("the broker's meters in Boot's registry").isEqualTo(1);
      assertThat(boots.get("ferry.broker.requests").tag("route", "/echo").tag("status", "200")
          .counter().count()).isEqualTo(1);
    }
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
        .as("the broker closed with the application").isInstanceOf(ConnectException.class);
  }

  @Test
  void routesFromARoutesFile() throws Exception {
    Path routes = Files.writeString(dir.resolve("routes.yaml"),
        "timeout: 10s\nroutes:\n  - path: /file\n    to: " + backend.uri("/echo") + "\n");
    try (ConfigurableApplicationContext context = app(
        "ferry.broker.routes-file=" + routes).run()) {
      ManagedBroker broker = context.getBean(ManagedBroker.class);
      assertThat(echo(broker.uri("/file"), "from the file")).isEqualTo("from the file");
      assertThat(broker.routes().timeout()).isEqualTo(Duration.ofSeconds(10));
    }
  }

  /** The application's own OpenTelemetry, its spans kept in memory. */
  @Configuration(proxyBeanMethods = false)
  static class Traced {
    static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

    @Bean
    OpenTelemetry openTelemetry() {
      return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
          .addSpanProcessor(SimpleSpanProcessor.create(SPANS)).build()).build();
    }
  }

  @Test
  void spansGoToTheApplicationsOpenTelemetry() throws Exception {
    try (ConfigurableApplicationContext context = app("ferry.broker.routes[0].path=/echo",
        "ferry.broker.routes[0].to=" + backend.uri("/echo")).sources(Traced.class).run()) {
      ManagedBroker broker = context.getBean(ManagedBroker.class);
      assertThat(echo(broker.uri("/echo"), "traced")).isEqualTo("traced");
      // the backend and the client here trace with the global OpenTelemetry, which is off:
      // every span is the broker's, made by the application's bean
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (Traced.SPANS.getFinishedSpanItems().stream()
          .noneMatch(s -> s.getKind() == SpanKind.SERVER) && System.nanoTime() < deadline) {
        Thread.sleep(5); // the server span ends once the reply went out
      }
      List<SpanData> spans = Traced.SPANS.getFinishedSpanItems();
      SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER)
          .findFirst().orElseThrow(() -> new AssertionError("no server span in " + spans));
      SpanData member = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT)
          .findFirst().orElseThrow(() -> new AssertionError("no client span in " + spans));
      assertThat(server.getAttributes().get(AttributeKey.stringKey("rpc.system")))
          .isEqualTo("soap");
      assertThat(member.getParentSpanId()).isEqualTo(server.getSpanId());
      assertThat(member.getTraceId()).isEqualTo(server.getTraceId());
    }
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void aWrongRouteOrValueFailsStartUpNamingTheProperty(CapturedOutput output) {
    assertThatThrownBy(() -> app("ferry.broker.routes[0].path=/x",
        "ferry.broker.routes[0].to=ftp://example.com/x").run().close())
        .hasStackTraceContaining("ferry.broker.routes[0].to: expected an http:// or https://");
    assertThatThrownBy(() -> app("ferry.broker.routes[0].path=x",
        "ferry.broker.routes[0].to=http://example.com/x").run().close())
        .hasStackTraceContaining("ferry.broker.routes[0].path: must start with /");
    assertThatThrownBy(() -> app("ferry.broker.routes[0].path=/x",
        "ferry.broker.routes[0].to=http://example.com/x",
        "ferry.broker.routes-file=" + dir.resolve("routes.yaml")).run().close())
        .hasStackTraceContaining("ferry.broker.routes and ferry.broker.routes-file are both");
    for (String bad : List.of("ferry.broker.port=70000", "ferry.broker.timeout=0s",
        "ferry.broker.routes[0].wsa-to=sometimes")) {
      int from = output.getOut().length();
      assertThatThrownBy(() -> app("ferry.broker.routes[0].path=/x",
          "ferry.broker.routes[0].to=http://example.com/x", bad).run().close()).as(bad)
          .isInstanceOf(RuntimeException.class);
      assertThat(output.getOut().substring(from)).as("the start-up report").contains(
          "APPLICATION FAILED TO START", "Property: " + bad.substring(0, bad.indexOf('=')),
          "Reason:");
    }
  }
}
