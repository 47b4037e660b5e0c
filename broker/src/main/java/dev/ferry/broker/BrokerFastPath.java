package dev.ferry.broker;

import dev.ferry.mime.MediaType;
import dev.ferry.server.Metrics;
import dev.ferry.server.internal.HttpSoap;
import dev.ferry.server.internal.JettyHost;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The broker's path for small requests, in front of {@link BrokerServlet} on Jetty's core
 * handler API: a SOAP POST with a Content-Length up to {@link #MAX_BYTES} (what {@link
 * BackendClient} sends whole anyway) becomes a {@link FastExchange}, in which no thread waits
 * for the caller's body, the backend's reply, or the reply's writing. Everything else goes on
 * to the servlets unchanged: chunked or larger requests (they stream), other methods (GET
 * {@code ?wsdl}), media types that are not SOAP (the servlet answers them 415), and the host's
 * own paths ({@code /health}, {@code /metrics}).
 */
final class BrokerFastPath extends Handler.Wrapper {
  /** The largest request body this path takes. */
  static final int MAX_BYTES = 64 * 1024;

  final SoapCodec codec;
  final BackendClient backend;
  final Forwarding forwarding;
  final Audit audit;
  final Metrics metrics;
  private final LongAdder exchanges = new LongAdder();

  BrokerFastPath(SoapCodec codec, BackendClient backend, Forwarding forwarding, Audit audit,
      Metrics metrics) {
    this.codec = codec;
    this.backend = backend;
    this.forwarding = forwarding;
    this.audit = audit;
    this.metrics = metrics;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    MediaType type = smallSoapPost(request);
    if (type == null) {
      return super.handle(request, response, callback);
    }
    exchanges.increment();
    new FastExchange(this, request, response, callback, type).start();
    return true;
  }

  /** How many exchanges this path has taken. */
  long exchanges() {
    return exchanges.sum();
  }

  /** Returns the media type of a request this path takes, or null for one it passes on. */
  private static MediaType smallSoapPost(Request request) {
    long length = request.getLength();
    if (length <= 0 || length > MAX_BYTES || !HttpMethod.POST.is(request.getMethod())
        || JettyHost.OWN_PATHS.contains(request.getHttpURI().getCanonicalPath())) {
      return null;
    }
    MediaType type = HttpSoap.mediaType(request.getHeaders().get(HttpHeader.CONTENT_TYPE));
    return type != null && SoapBinding.version(type) != null ? type : null;
  }
}
