package dev.ferry.server.internal;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Once a drain began, every answer says {@code Connection: close}, so that the connections
 * callers keep alive (a broker's or a client's pool) are retired one by one while new ones are
 * still taken, instead of staying open until the listener closes: a request sent on a kept-alive
 * connection after that would be answered 503 without being served.
 */
final class ClosingWhileDraining extends Handler.Wrapper {
  private final Probes probes;

  ClosingWhileDraining(Handler handler, Probes probes) {
    super(handler);
    this.probes = probes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (probes.isDraining()) {
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }
    return super.handle(request, response, callback);
  }
}
