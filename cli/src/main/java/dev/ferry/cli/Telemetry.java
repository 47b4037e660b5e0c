package dev.ferry.cli;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The OpenTelemetry SDK of a long-running command ({@code ferry serve}, {@code ferry broker},
 * {@code ferry ldap serve}), configured as every SDK is, by the standard {@code OTEL_*}
 * environment variables (or {@code otel.*} system properties): it is started only when an
 * exporter is asked for ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} or {@code OTEL_TRACES_EXPORTER}), and not at all
 * under {@code OTEL_SDK_DISABLED=true}. Only traces are exported (metrics are at
 * {@code /metrics}), over OTLP/HTTP unless {@code OTEL_EXPORTER_OTLP_PROTOCOL} says otherwise;
 * the service is named after the command unless {@code OTEL_SERVICE_NAME} says otherwise.
 * Closing it flushes the spans not yet exported.
 */
final class Telemetry implements AutoCloseable {
  private static final String[] ASKED_BY = {"otel.exporter.otlp.endpoint",
      "otel.exporter.otlp.traces.endpoint", "otel.traces.exporter"};

  private final OpenTelemetrySdk sdk;

  private Telemetry(OpenTelemetrySdk sdk) {
    this.sdk = sdk;
  }

  /** Starts the SDK if the environment asks for one, registered as the global one. */
  static Telemetry start(String serviceName) {
    return start(serviceName, System::getProperty, System.getenv());
  }

  static Telemetry start(String serviceName, Function<String, String> properties,
      Map<String, String> env) {
    if (!asked(properties, env) || "true".equalsIgnoreCase(setting("otel.sdk.disabled",
        properties, env))) {
      return new Telemetry(null);
    }
    OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
        // Defaults under the user's settings. The SDK's own default protocol is gRPC, whose
        // exporter the command does not ship: OTEL_EXPORTER_OTLP_ENDPOINT alone would fail.
        .addPropertiesSupplier(() -> Map.of(
            "otel.service.name", serviceName,
            "otel.exporter.otlp.protocol", "http/protobuf",
            "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none"))
        .setResultAsGlobal()
        .build().getOpenTelemetrySdk();
    return new Telemetry(sdk);
  }

  private static boolean asked(Function<String, String> properties, Map<String, String> env) {
    for (String name : ASKED_BY) {
      String v = setting(name, properties, env);
      if (v != null && !v.isBlank() && !v.equalsIgnoreCase("none")) {
        return true;
      }
    }
    return false;
  }

  /** A setting as the SDK reads it: the system property, else the environment variable. */
  private static String setting(String property, Function<String, String> properties,
      Map<String, String> env) {
    String v = properties.apply(property);
    return v != null ? v : env.get(property.toUpperCase(Locale.ROOT).replace('.', '_'));
  }

  /** Whether spans are exported. */
  boolean exporting() {
    return sdk != null;
  }

  /** The SDK, or null when none was asked for (then the server's spans cost nothing). */
  OpenTelemetry openTelemetry() {
    return sdk;
  }

  /** Closes {@code server}, then flushes and stops the SDK. */
  AutoCloseable closing(AutoCloseable server) {
    return () -> {
      try {
        server.close();
      } finally {
        close();
      }
    };
  }

  @Override
  public void close() {
    if (sdk != null) {
      sdk.close();
    }
  }
}
