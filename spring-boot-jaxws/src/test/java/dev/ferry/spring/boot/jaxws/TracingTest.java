package dev.ferry.spring.boot.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.jws.WebService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application with Micrometer Tracing's OpenTelemetry bridge ({@code management.tracing.*})
 * and an in-memory span exporter: a client bean calls a {@code @WebService} bean that calls
 * another through a second client bean, inside an observation of the application's own, and
 * Ferry's client and server spans are all in the application's trace, each the child of the
 * span that made the call: the same OpenTelemetry that Boot configured made them.
 */
@SpringBootTest(classes = TracingTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT, properties = {
        "ferry.jaxws.path=/soap",
        "ferry.jaxws.endpoints.greeter.path=/Greeter",
        "ferry.jaxws.endpoints.relay.path=/Relay",
        "ferry.clients.greeter-port.service-interface=dev.ferry.spring.boot.jaxws.Greeter",
        "ferry.clients.relay-port.service-interface=dev.ferry.spring.boot.jaxws.Greeter",
        "management.tracing.sampling.probability=1.0"})
class TracingTest {
  static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();
  private static final int PORT = freePort();

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OpenSecurity.class)
  static class App {
    @Bean
    GreeterService greeter() {
      return new GreeterService("Hello");
    }

    @Bean
    Relay relay(ApplicationContext beans) {
      return new Relay(beans);
    }

    /** Spans exported as each ends, into memory. */
    @Bean
    SpanProcessor inMemory() {
      return SimpleSpanProcessor.create(SPANS);
    }
  }

  /** An endpoint whose operation calls the greeter through the client bean greeter-port. */
  @WebService(endpointInterface = "dev.ferry.spring.boot.jaxws.Greeter",
      serviceName = "RelayService", portName = "RelayPort", targetNamespace = Greeter.NS)
  public static class Relay implements Greeter {
    private final ApplicationContext beans;

    Relay(ApplicationContext beans) {
      this.beans = beans;
    }

    @Override
    public String sayHello(String name) {
      return "relayed: " + beans.getBean("greeter-port", Greeter.class).sayHello(name);
    }

    @Override
    public String whoAmI() {
      return "relay";
    }

    @Override
    public byte[] echo(byte[] data) {
      return data;
    }
  }

  @DynamicPropertySource
  static void addresses(DynamicPropertyRegistry registry) {
    registry.add("server.port", () -> PORT);
    registry.add("ferry.clients.greeter-port.address",
        () -> "http://127.0.0.1:" + PORT + "/soap/Greeter");
    registry.add("ferry.clients.relay-port.address",
        () -> "http://127.0.0.1:" + PORT + "/soap/Relay");
  }

  @Autowired
  @Qualifier("relay-port")
  Greeter relayPort;

  @Autowired
  ObservationRegistry observations;

  @Test
  void ferrysSpansJoinTheApplicationsTraceWithTheirParentsRight() {
    SPANS.reset();
    String answer = Observation.createNotStarted("test-call", observations)
        .observe(() -> relayPort.sayHello("Ada"));
    assertThat(answer).isEqualTo("relayed: Hello, Ada!");

    List<SpanData> spans = SPANS.getFinishedSpanItems();
    SpanData root = only(spans, s -> s.getName().equals("test-call"));
    SpanData outerCall = childOf(spans, root, "dev.ferry.client", SpanKind.CLIENT);
    SpanData relay = childOf(spans, outerCall, "dev.ferry.server", SpanKind.SERVER);
    SpanData innerCall = childOf(spans, relay, "dev.ferry.client", SpanKind.CLIENT);
    SpanData greeter = childOf(spans, innerCall, "dev.ferry.server", SpanKind.SERVER);

    Set<String> traces = spans.stream().map(SpanData::getTraceId).collect(Collectors.toSet());
    assertThat(traces).as("one trace").containsExactly(root.getTraceId());
    assertThat(relay.getAttributes().asMap().toString()).contains("/soap/Relay");
    assertThat(greeter.getAttributes().asMap().toString()).contains("/soap/Greeter");
    assertThat(outerCall.getName()).isEqualTo(innerCall.getName()).contains("sayHello");
  }

  private static SpanData childOf(List<SpanData> spans, SpanData parent, String scope,
      SpanKind kind) {
    return only(spans, s -> s.getParentSpanId().equals(parent.getSpanId())
        && s.getInstrumentationScopeInfo().getName().equals(scope) && s.getKind() == kind);
  }

  private static SpanData only(List<SpanData> spans, java.util.function.Predicate<SpanData> p) {
    List<SpanData> found = spans.stream().filter(p).toList();
    assertThat(found).as("in " + spans.stream().map(s -> s.getName() + "("
        + s.getInstrumentationScopeInfo().getName() + ")").toList()).hasSize(1);
    return found.getFirst();
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
