package dev.ferry.client.internal;

import io.netty.handler.codec.http.HttpHeaders;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;

/** Reads and writes trace context in a Netty message's headers. */
public enum NettyHeaders implements TextMapGetter<HttpHeaders>, TextMapSetter<HttpHeaders> {
  INSTANCE;

  @Override
  public Iterable<String> keys(HttpHeaders headers) {
    return headers.names();
  }

  @Override
  public String get(HttpHeaders headers, String key) {
    return headers == null ? null : headers.get(key);
  }

  @Override
  public void set(HttpHeaders headers, String key, String value) {
    if (headers != null) {
      headers.set(key, value);
    }
  }
}
