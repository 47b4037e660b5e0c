package dev.ferry.broker;

import dev.ferry.security.Identity;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpRequest;

/** A caller's request head that the broker authenticated: the head, and who sent it. */
final class CallerRequest extends DefaultHttpRequest {
  private final Identity identity;

  CallerRequest(HttpRequest head, Identity identity) {
    super(head.protocolVersion(), head.method(), head.uri(), head.headers());
    setDecoderResult(head.decoderResult());
    this.identity = identity;
  }

  /** The identity of the caller of {@code request}, or null if it was not authenticated. */
  static Identity of(HttpRequest request) {
    return request instanceof CallerRequest c ? c.identity : null;
  }
}
