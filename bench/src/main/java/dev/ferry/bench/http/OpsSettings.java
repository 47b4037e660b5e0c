package dev.ferry.bench.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@code ferry serve} or {@code ferry broker} is started for one of the probes' logging and
 * tracing variants, named by the suffix of the server's or relay's name: as shipped (no suffix),
 * with its logs as JSON lines ({@code -json}), with spans exported over OTLP to {@code spans} by
 * the SDK's defaults ({@code -traced}), the same with the SDK keeping no attribute
 * ({@code -traced-bare}: {@code OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT=0}, the SDK's own cost per span),
 * with spans made but none sampled ({@code -unsampled}: what propagation and the API cost), or
 * with message logging for support ({@code -messages}). Each is what a user sets: environment
 * variables and options of the shipped command.
 */
record OpsSettings(Map<String, String> environment, List<String> options) {
  private static final List<String> SUFFIXES =
      List.of("-traced-bare", "-traced", "-unsampled", "-json", "-messages");

  /** The settings of the variant {@code name} of {@code base} ({@code ferry-serve-json}). */
  static OpsSettings of(String name, String base, OtlpSink spans) {
    String suffix = name.substring(base.length());
    return switch (suffix) {
      case "" -> new OpsSettings(Map.of(), List.of());
      case "-json" -> new OpsSettings(Map.of("FERRY_LOG_FORMAT", "json"), List.of());
      case "-traced" -> traced(spans, Map.of());
      case "-traced-bare" -> traced(spans, Map.of("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", "0"));
      case "-unsampled" -> traced(spans, Map.of("OTEL_TRACES_SAMPLER", "always_off"));
      case "-messages" -> new OpsSettings(Map.of(), List.of("--log-messages"));
      default -> throw new IllegalArgumentException("no such variant of " + base + ": " + name
          + " (variants: " + SUFFIXES + ")");
    };
  }

  /** Whether {@code name} is {@code base} or one of its variants. */
  static boolean isVariant(String name, String base) {
    return name.equals(base) || name.startsWith(base) && SUFFIXES.contains(
        name.substring(base.length()));
  }

  /** Spans exported over OTLP/HTTP to {@code spans}, with {@code more} SDK settings. */
  private static OpsSettings traced(OtlpSink spans, Map<String, String> more) {
    Map<String, String> env = new HashMap<>(more);
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", spans.endpoint());
    env.put("OTEL_SERVICE_NAME", "bench");
    return new OpsSettings(Map.copyOf(env), List.of());
  }
}
