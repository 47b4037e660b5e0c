package dev.ferry.server.internal;

import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;

/** Reads trace context from a servlet request's headers. */
public enum ServletHeaders implements TextMapGetter<HttpServletRequest> {
  GETTER;

  @Override
  public Iterable<String> keys(HttpServletRequest request) {
    return Collections.list(request.getHeaderNames());
  }

  @Override
  public String get(HttpServletRequest request, String key) {
    return request == null ? null : request.getHeader(key);
  }
}
