package dev.ferry.broker;

import dev.ferry.broker.internal.HttpForms;
import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapVersion;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;

/**
 * What the broker answers one {@link Exchange} itself, instead of a member's reply: SOAP faults
 * (its own, a route's, a limit's refusal, every member suspended, too many exchanges), short
 * texts for what is not a SOAP request, and {@code /health}, its probes and {@code /metrics}.
 * Each waits for the request's end ({@link Exchange#refuse}, {@link Exchange#whenRequestRead})
 * and goes out through {@link Exchange#respond}, which counts the exchange.
 */
final class Answers {
  private final Exchange x;

  Answers(Exchange x) {
    this.x = x;
  }

  /** Answers {@code fault}, with the status its SOAP version's binding gives it. */
  void fault(Fault fault) {
    x.refuse(() -> respondWith(fault, SoapBinding.status(fault), null));
  }

  /**
   * A route's limit refused the request: {@code Retry-After} and a fault naming the limit, 503
   * and Receiver for the route's limits, 429 and Sender for a caller's own (or the status the
   * SOAP binding gives the fault, if the route says so).
   */
  void limited(RouteLimiter.Refusal no) {
    SoapVersion v = x.version;
    x.cx.metrics().limited(x.route.name(), no.limit());
    Fault f = Fault.of(v, no.callers() ? v.senderFaultCode() : v.receiverFaultCode(),
        "too many requests: " + no.reason() + " (RouteLimits." + no.limit() + "); try again in "
        + no.retryAfterSeconds() + " s");
    int status = x.route.limits().soapStatus() ? SoapBinding.status(f) : no.status();
    x.refuse(() -> respondWith(f, status, Long.toString(no.retryAfterSeconds())));
  }

  /** Every member of the route's group is suspended: 503, a Receiver fault, when to return. */
  void allSuspended(Backends group) {
    SoapVersion v = x.version;
    Fault f = Fault.of(v, v.receiverFaultCode(), "the service behind " + x.route.path()
        + " is unavailable: every member of " + group.group().name()
        + " is suspended after failing; try again");
    String retryAfter = Long.toString(group.secondsUntilOneReturns());
    x.refuse(() -> respondWith(f, 503, retryAfter));
  }

  /** Past {@link BrokerOptions#maxExchanges}: 503, a Receiver fault, and when to come back. */
  void busy() {
    SoapVersion v = x.version;
    Fault f = Fault.of(v, v.receiverFaultCode(), "the broker is busy: "
        + x.cx.options().maxExchanges() + " exchanges are in flight, the most it forwards at"
        + " once (BrokerOptions.maxExchanges); try again");
    x.refuse(() -> respondWith(f, 503, "1"));
  }

  private void respondWith(Fault fault, int status, String retryAfter) {
    if (x.answered) {
      x.abortCaller("fault after the reply began: " + fault.reason());
      return;
    }
    byte[] envelope;
    try {
      envelope = fault.toEnvelope(x.cx.codec()).toByteArray();
    } catch (IOException e) {
      x.abortCaller("fault unwritable: " + e.getMessage()); // an in-memory write: not expected
      return;
    }
    x.bytesOut = envelope.length;
    if (x.traced != null) {
      x.faultCode = fault.code();
    }
    x.respond(HttpForms.fault(x.request.protocolVersion(), status, envelope,
        SoapBinding.contentType(fault.version()), retryAfter), status, "fault: "
        + fault.reason());
  }

  /** Answers with a short text: for what is not a SOAP request. */
  void plain(HttpResponseStatus status, String text) {
    x.refuse(() -> {
      FullHttpResponse out = HttpForms.text(x.request.protocolVersion(), status, text);
      x.bytesOut = out.content().readableBytes();
      x.respond(out, status.code(), text);
    });
  }

  void notAllowed(String text) {
    plain(HttpResponseStatus.METHOD_NOT_ALLOWED, text);
  }

  /**
   * {@code /health}, the probes and {@code /metrics}: GET only. Readiness fails while the broker
   * drains, and while every member of a group that gates readiness is suspended; liveness and
   * startup hold while it answers at all (its routes are read before it listens).
   */
  void own(HttpMethod method) {
    x.whenRequestRead(() -> ownNow(method));
  }

  private void ownNow(HttpMethod method) {
    if (!HttpMethod.GET.equals(method)) {
      notAllowed(x.path + " takes GET");
      return;
    }
    HttpVersion v = x.request.protocolVersion();
    FullHttpResponse out = x.path.equals("/metrics")
        ? HttpForms.metrics(v, x.cx.metrics().scrape())
        : HttpForms.health(v, x.path.equals("/health/ready") ? unready() : null);
    x.bytesOut = out.content().readableBytes();
    x.respond(out, out.status().code(), null);
  }

  /** Why the broker is not ready, or null. */
  private String unready() {
    return x.cx.draining() ? "draining" : x.set.unready();
  }
}
