package dev.ferry.tracing.internal;

import static dev.ferry.tracing.SoapAttributes.CLIENT_ADDRESS;
import static dev.ferry.tracing.SoapAttributes.ERROR_TYPE;
import static dev.ferry.tracing.SoapAttributes.HTTP_REQUEST_BODY_SIZE;
import static dev.ferry.tracing.SoapAttributes.HTTP_REQUEST_METHOD;
import static dev.ferry.tracing.SoapAttributes.HTTP_RESPONSE_BODY_SIZE;
import static dev.ferry.tracing.SoapAttributes.HTTP_RESPONSE_STATUS_CODE;
import static dev.ferry.tracing.SoapAttributes.RPC_METHOD;
import static dev.ferry.tracing.SoapAttributes.RPC_SERVICE;
import static dev.ferry.tracing.SoapAttributes.RPC_SYSTEM;
import static dev.ferry.tracing.SoapAttributes.SERVER_ADDRESS;
import static dev.ferry.tracing.SoapAttributes.SERVER_PORT;
import static dev.ferry.tracing.SoapAttributes.SOAP_ATTACHMENT_COUNT;
import static dev.ferry.tracing.SoapAttributes.SOAP_FAULT_CODE;
import static dev.ferry.tracing.SoapAttributes.SOAP_VERSION;
import static dev.ferry.tracing.SoapAttributes.URL_FULL;
import static dev.ferry.tracing.SoapAttributes.URL_PATH;
import static dev.ferry.tracing.SoapAttributes.URL_SCHEME;

import dev.ferry.soap.SoapVersion;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.net.URI;
import javax.xml.namespace.QName;

/**
 * The spans of SOAP calls through one {@link OpenTelemetry}: a server span per request whose
 * parent is the context its headers carry (W3C {@code traceparent}, {@code tracestate} and
 * {@code baggage}, or whatever the configured propagators read), a client span per call whose
 * context goes out in its headers. With the API's no-op implementation every method here costs
 * a few calls and allocates nothing per call; attributes are only set on a span that records.
 * Thread-safe.
 */
public final class SoapSpans {
  private static final String POST = "POST";

  private final Tracer tracer;
  private final TextMapPropagator propagator;

  private SoapSpans(OpenTelemetry otel, String scope) {
    this.tracer = otel.getTracer(scope);
    this.propagator = otel.getPropagators().getTextMapPropagator();
  }

  /** Spans through {@code otel}, under the instrumentation scope {@code scope}. */
  public static SoapSpans of(OpenTelemetry otel, String scope) {
    return new SoapSpans(otel, scope);
  }

  /**
   * Spans through {@code otel}, or if it is null through {@link GlobalOpenTelemetry} as an SDK
   * or the Java agent registered it before this call; if none did, through the no-op
   * implementation, without setting the global one (which an SDK may still register later for
   * the servers and clients built after it).
   */
  public static SoapSpans orGlobal(OpenTelemetry otel, String scope) {
    return of(otel != null ? otel : GlobalOpenTelemetry.getOrNoop(), scope);
  }

  /**
   * Starts the server span of a request whose headers {@code getter} reads from
   * {@code carrier}: its parent is the context they carry, if any (never the thread's own).
   * Returns the context to run the endpoint in: the span, and the baggage that came with it.
   *
   * @param name the span's name until an endpoint names it ({@code POST /path})
   */
  public <C> Context startServer(C carrier, TextMapGetter<C> getter, String name, String path,
      String scheme, String clientAddress) {
    Context parent = propagator.extract(Context.root(), carrier, getter);
    Span span = tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER).setParent(parent)
        .startSpan();
    if (span.isRecording()) {
      span.setAttribute(RPC_SYSTEM, "soap");
      span.setAttribute(HTTP_REQUEST_METHOD, POST);
      span.setAttribute(URL_PATH, path);
      span.setAttribute(URL_SCHEME, scheme);
      if (clientAddress != null) {
        span.setAttribute(CLIENT_ADDRESS, clientAddress);
      }
    }
    return parent.with(span);
  }

  /**
   * Starts the client span of a call to {@code uri}, a child of {@code parent}'s span (none:
   * a new trace). Returns the context to send in the call's headers ({@link #inject}).
   *
   * @param service the WSDL service, or null
   * @param operation the WSDL operation, or null: then the span is named {@code POST}
   */
  public Context startClient(Context parent, URI uri, String service, String operation) {
    String name = operation == null ? POST
        : service == null ? operation : service + "/" + operation;
    Span span = tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT).setParent(parent)
        .startSpan();
    if (span.isRecording()) {
      span.setAttribute(RPC_SYSTEM, "soap");
      span.setAttribute(HTTP_REQUEST_METHOD, POST);
      span.setAttribute(URL_FULL, withoutUserInfo(uri));
      span.setAttribute(SERVER_ADDRESS, uri.getHost());
      span.setAttribute(SERVER_PORT, port(uri));
      if (operation != null) {
        if (service != null) {
          span.setAttribute(RPC_SERVICE, service);
        }
        span.setAttribute(RPC_METHOD, operation);
      }
    }
    return parent.with(span);
  }

  /** Writes {@code context} (the span and the baggage) into a call's headers. */
  public <C> void inject(Context context, C carrier, TextMapSetter<C> setter) {
    propagator.inject(context, carrier, setter);
  }

  private static String withoutUserInfo(URI uri) {
    if (uri.getRawUserInfo() == null) {
      return uri.toString();
    }
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":"
        + uri.getPort()) + (uri.getRawPath() == null ? "" : uri.getRawPath())
        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
  }

  private static long port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  /** Names {@code span} after its operation: {@code service/method}, or {@code method}. */
  public static void operation(Span span, String service, String method) {
    if (!span.isRecording() || method == null) {
      return;
    }
    boolean named = service != null && !service.isEmpty();
    span.updateName(named ? service + "/" + method : method);
    if (named) {
      span.setAttribute(RPC_SERVICE, service);
    }
    span.setAttribute(RPC_METHOD, method);
  }

  /**
   * Notes the SOAP version and the number of attachments of the message on {@code span}
   * ({@code attachments} negative: not known).
   */
  public static void message(Span span, SoapVersion version, int attachments) {
    if (span.isRecording()) {
      span.setAttribute(SOAP_VERSION, version == SoapVersion.SOAP_11 ? "1.1" : "1.2");
      if (attachments >= 0) {
        span.setAttribute(SOAP_ATTACHMENT_COUNT, attachments);
      }
    }
  }

  /**
   * Ends a server span: a failure, a Receiver (Server) fault or a 5xx without a fault is an
   * error; a Sender fault is the caller's, not the server's.
   *
   * @param faultCode the code of the fault answered, or null
   * @param failure what cut the exchange short, or null
   */
  public static void endServer(Span span, int status, long requestBytes, long responseBytes,
      QName faultCode, Throwable failure) {
    if (span.isRecording()) {
      boolean error = failure != null || (faultCode != null ? isReceiver(faultCode)
          : status >= 500);
      finish(span, status, requestBytes, responseBytes, faultCode, failure, error);
    }
    span.end();
  }

  /** Ends a client span: a failure, a fault or a status of 400 or more is an error. */
  public static void endClient(Span span, int status, long requestBytes, long responseBytes,
      QName faultCode, Throwable failure) {
    if (span.isRecording()) {
      boolean error = failure != null || faultCode != null || status >= 400;
      finish(span, status, requestBytes, responseBytes, faultCode, failure, error);
    }
    span.end();
  }

  private static void finish(Span span, int status, long requestBytes, long responseBytes,
      QName faultCode, Throwable failure, boolean error) {
    if (status > 0) {
      span.setAttribute(HTTP_RESPONSE_STATUS_CODE, status);
    }
    span.setAttribute(HTTP_REQUEST_BODY_SIZE, requestBytes);
    span.setAttribute(HTTP_RESPONSE_BODY_SIZE, responseBytes);
    if (faultCode != null) {
      span.setAttribute(SOAP_FAULT_CODE, faultCode.getLocalPart());
    }
    if (!error) {
      return;
    }
    if (failure != null) {
      span.recordException(failure);
      span.setAttribute(ERROR_TYPE, failure.getClass().getName());
    } else {
      span.setAttribute(ERROR_TYPE, faultCode != null ? faultCode.getLocalPart()
          : Integer.toString(status));
    }
    span.setStatus(StatusCode.ERROR);
  }

  /** Whether {@code code} is SOAP 1.2's Receiver or SOAP 1.1's Server. */
  private static boolean isReceiver(QName code) {
    return code.equals(SoapVersion.SOAP_12.receiverFaultCode())
        || code.equals(SoapVersion.SOAP_11.receiverFaultCode());
  }
}
