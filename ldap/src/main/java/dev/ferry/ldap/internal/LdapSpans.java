package dev.ferry.ldap.internal;

import dev.ferry.ldap.ProtocolOp;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.net.InetAddress;
import java.util.Set;

/**
 * The spans of LDAP operations through one {@link OpenTelemetry}: a client span per request
 * (a child of the caller's current span) and a server span per request the directory serves.
 * LDAP carries no trace context, so a server span starts a trace of its own. Named
 * {@code LDAP <operation>}; attributes below. With the API's no-op implementation nothing is
 * recorded and nothing allocated per operation. Thread-safe.
 *
 * <table>
 *   <caption>Attributes</caption>
 *   <tr><td>{@code network.protocol.name}</td><td>{@code ldap}</td></tr>
 *   <tr><td>{@code ldap.operation}</td><td>bind, search, add, modify, delete, modifyDN,
 *       compare, extended</td></tr>
 *   <tr><td>{@code ldap.dn}</td><td>the entry the request names (a search's base); never a
 *       password or a value</td></tr>
 *   <tr><td>{@code ldap.result_code}</td><td>the result's code</td></tr>
 *   <tr><td>{@code ldap.search.entries}</td><td>entries a search returned</td></tr>
 *   <tr><td>{@code server.address}, {@code server.port}</td><td>client spans</td></tr>
 *   <tr><td>{@code client.address}</td><td>server spans</td></tr>
 * </table>
 */
public final class LdapSpans {
  public static final AttributeKey<String> PROTOCOL = AttributeKey.stringKey(
      "network.protocol.name");
  public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("ldap.operation");
  public static final AttributeKey<String> DN = AttributeKey.stringKey("ldap.dn");
  public static final AttributeKey<Long> RESULT_CODE = AttributeKey.longKey("ldap.result_code");
  public static final AttributeKey<Long> ENTRIES = AttributeKey.longKey("ldap.search.entries");
  private static final AttributeKey<String> SERVER_ADDRESS =
      AttributeKey.stringKey("server.address");
  private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  private static final AttributeKey<String> CLIENT_ADDRESS =
      AttributeKey.stringKey("client.address");
  private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  /** Results that mean the server failed, not the request: operationsError, busy, ... */
  private static final Set<Integer> SERVER_FAILURES = Set.of(1, 51, 52, 80);

  private final Tracer tracer;

  private LdapSpans(OpenTelemetry otel, String scope) {
    this.tracer = otel.getTracer(scope);
  }

  /**
   * Spans through {@code otel}, or if null through the global one as an SDK or the Java agent
   * registered it before this call (the no-op one if none did, without setting it).
   */
  public static LdapSpans orGlobal(OpenTelemetry otel, String scope) {
    return new LdapSpans(otel != null ? otel : GlobalOpenTelemetry.getOrNoop(), scope);
  }

  /** Starts the client span of {@code request} to {@code host:port}. */
  public Span startClient(ProtocolOp request, String host, int port) {
    Span span = start(request, SpanKind.CLIENT, Context.current());
    if (span.isRecording()) {
      span.setAttribute(SERVER_ADDRESS, host);
      span.setAttribute(SERVER_PORT, port);
    }
    return span;
  }

  /** Starts the server span of {@code request} from {@code client}. */
  public Span startServer(ProtocolOp request, InetAddress client) {
    Span span = start(request, SpanKind.SERVER, Context.root());
    if (span.isRecording() && client != null) {
      span.setAttribute(CLIENT_ADDRESS, client.getHostAddress());
    }
    return span;
  }

  private Span start(ProtocolOp request, SpanKind kind, Context parent) {
    String operation = operation(request);
    Span span = tracer.spanBuilder("LDAP " + operation).setSpanKind(kind).setParent(parent)
        .startSpan();
    if (span.isRecording()) {
      span.setAttribute(PROTOCOL, "ldap");
      span.setAttribute(OPERATION, operation);
      String dn = dn(request);
      if (dn != null) {
        span.setAttribute(DN, dn);
      }
    }
    return span;
  }

  /** The operation's name, as the span and {@code ldap.operation} give it. */
  static String operation(ProtocolOp request) {
    return switch (request) {
      case ProtocolOp.BindRequest b -> "bind";
      case ProtocolOp.SearchRequest s -> "search";
      case ProtocolOp.ModifyRequest m -> "modify";
      case ProtocolOp.AddRequest a -> "add";
      case ProtocolOp.DeleteRequest d -> "delete";
      case ProtocolOp.ModifyDnRequest m -> "modifyDN";
      case ProtocolOp.CompareRequest c -> "compare";
      case ProtocolOp.ExtendedRequest e -> "extended";
      default -> "other";
    };
  }

  private static String dn(ProtocolOp request) {
    return switch (request) {
      case ProtocolOp.BindRequest b -> b.name();
      case ProtocolOp.SearchRequest s -> s.baseObject();
      case ProtocolOp.ModifyRequest m -> m.object();
      case ProtocolOp.AddRequest a -> a.entry();
      case ProtocolOp.DeleteRequest d -> d.entry();
      case ProtocolOp.ModifyDnRequest m -> m.entry();
      case ProtocolOp.CompareRequest c -> c.entry();
      default -> null;
    };
  }

  /**
   * Ends a client span with the result's code: any code but success, compareFalse,
   * compareTrue and saslBindInProgress is an error.
   *
   * @param entries entries a search returned, or negative
   */
  public static void endClient(Span span, int resultCode, long entries) {
    boolean ok = resultCode == 0 || resultCode == 5 || resultCode == 6 || resultCode == 14;
    end(span, resultCode, entries, !ok);
  }

  /**
   * Ends a server span with the result's code: only the codes of a server that failed
   * (operationsError, busy, unavailable, other) are errors; a refused request is the client's.
   */
  public static void endServer(Span span, int resultCode, long entries) {
    end(span, resultCode, entries, SERVER_FAILURES.contains(resultCode));
  }

  private static void end(Span span, int resultCode, long entries, boolean error) {
    if (span.isRecording()) {
      span.setAttribute(RESULT_CODE, resultCode);
      if (entries >= 0) {
        span.setAttribute(ENTRIES, entries);
      }
      if (error) {
        span.setAttribute(ERROR_TYPE, Integer.toString(resultCode));
        span.setStatus(StatusCode.ERROR);
      }
    }
    span.end();
  }

  /** Ends a span whose operation got no result: {@code failure} says why. */
  public static void fail(Span span, Throwable failure) {
    if (span.isRecording()) {
      span.recordException(failure);
      span.setAttribute(ERROR_TYPE, failure.getClass().getName());
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
  }
}
