package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.server.ServerOptions;
import dev.ferry.testkit.OtlpReceiver;
import dev.ferry.testkit.OtlpReceiver.ReceivedSpan;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.SOAPBinding;
import java.time.Duration;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/**
 * A JAX-WS port calling a JAX-WS endpoint, both Ferry's, both traced: each span is named after
 * the WSDL operation ({@code Teller/whoAmI}), the endpoint's a child of the port's.
 */
class JaxWsTracingTest {
  @Test
  void portAndEndpointSpansAreNamedByOperation() throws Exception {
    String address = Ports.url("/teller");
    try (OtlpReceiver receiver = OtlpReceiver.start();
        OpenTelemetrySdk sdk = receiver.sdk("jaxws-test")) {
      Endpoint endpoint = Endpoint.publish(address, new TellerImpl(), ServerFeature.builder()
          .options(ServerOptions.builder().openTelemetry(sdk).build()).build());
      try {
        Service service = Service.create(new QName(Teller.NS, "TellerService"));
        QName portName = new QName(Teller.NS, "TellerPort");
        service.addPort(portName, SOAPBinding.SOAP11HTTP_BINDING, address);
        Teller port = service.getPort(portName, Teller.class);
        ((BindingProvider) port).getRequestContext()
            .put(FerryProvider.OPEN_TELEMETRY_PROPERTY, sdk);
        assertThat(port.whoAmI("clerk")).isEqualTo("nobody clerk=false");
      } finally {
        endpoint.stop();
      }
      sdk.getSdkTracerProvider().forceFlush();
      List<ReceivedSpan> spans = receiver.awaitSpans(2, Duration.ofSeconds(10));
      ReceivedSpan call = spans.stream().filter(s -> s.kind().equals("CLIENT")).findFirst()
          .orElseThrow();
      ReceivedSpan served = spans.stream().filter(s -> s.kind().equals("SERVER")).findFirst()
          .orElseThrow();
      assertThat(call.name()).isEqualTo("Teller/whoAmI");
      assertThat(served.name()).isEqualTo("Teller/whoAmI");
      assertThat(served.parentSpanId()).isEqualTo(call.spanId());
      assertThat(served.traceId()).isEqualTo(call.traceId());
      assertThat(served.attributes()).containsEntry("rpc.service", "Teller")
          .containsEntry("rpc.method", "whoAmI");
      assertThat(call.attributes()).containsEntry("rpc.service", "Teller")
          .containsEntry("rpc.method", "whoAmI");
    }
  }
}
