package dev.ferry.broker;

import dev.ferry.mime.MediaType;
import dev.ferry.server.Metrics;
import dev.ferry.server.internal.CountingOutputStream;
import dev.ferry.server.internal.HttpSoap;
import dev.ferry.server.internal.SoapHttpServlet;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import javax.xml.namespace.QName;

/**
 * The broker's request path: read the caller's envelope (attachments stay unread in the
 * connection), pick the route, rewrite wsa:To and add a trace header on the message's overlay
 * (the body is never parsed), stream envelope and attachments to the backend as they arrive,
 * then stream the backend's reply back as it came (not parsed: nothing in it changes). Memory
 * per exchange is a few buffers, whatever the attachments' sizes; nothing touches a disk unless
 * an audit copy is asked for.
 *
 * <p>Small requests do not come here: {@link BrokerFastPath} takes them before the servlet
 * container does. Routing, the changes and the faults are {@link Forwarding}'s, shared by both.
 *
 * <p>Failures before the reply is committed become SOAP faults: an unreadable request or a hit
 * limit (Sender, naming the limit), no route (Sender), a backend that is down, stalls or breaks
 * (Receiver, naming the backend). A backend that breaks after its reply has begun to flow back
 * cannot be turned into a fault; the caller's connection is then aborted, so the caller sees a
 * broken transfer, never a message silently cut short.
 */
final class BrokerServlet extends SoapHttpServlet {
  private static final long serialVersionUID = 1L;
  /** The trace header block the broker adds to every forwarded request. */
  static final QName TRACE = Forwarding.TRACE;

  /** Bytes per read of a streamed reply: what the backend client hands over at a time. */
  private static final int RELAY_CHUNK = 16 * 1024;

  private final transient BackendClient backend;
  private final transient Forwarding forwarding;
  private final transient Audit audit;

  BrokerServlet(SoapCodec codec, BackendClient backend, Forwarding forwarding, Metrics metrics,
      Audit audit) {
    super(codec, metrics);
    this.backend = backend;
    this.forwarding = forwarding;
    this.audit = audit;
  }

  @Override
  public String meterName(HttpServletRequest request) {
    return request.getRequestURI();
  }

  @Override
  public Outcome handle(HttpServletRequest request, HttpServletResponse response,
      MediaType type, MessageBuffer buffer, InputStream in, CountingOutputStream out)
      throws IOException {
    Message message = buffer.toMessage();
    String soapAction = HttpSoap.soapAction(request, type);
    Routes.Route route = forwarding.prepare(request.getRequestURI(), message, soapAction);
    if (route == null) {
      return fault(response, Forwarding.noRoute(request.getRequestURI(), message, soapAction));
    }
    Audit.Copy copy = audit.open(route);
    Payload payload = copy.wrap(message.toPayload());
    BackendReply reply;
    try {
      // what came in, plus room for the trace header and a longer wsa:To
      long length = request.getContentLengthLong();
      reply = backend.call(route.to(), payload, soapAction, length < 0 ? 0 : length + 1024);
    } catch (IOException e) {
      copy.discard();
      return fault(response, Forwarding.failed(message.version(), route.to(), e));
    }
    copy.complete();
    // the message went on; what the caller sent after it has not been read yet
    HttpSoap.readToEnd(in, epilogueBytes());
    try (reply) {
      return relay(response, reply, out, message.version(), route.to());
    }
  }

  /**
   * Passes the backend's reply on as it came: the broker changes nothing in it, so it is neither
   * parsed nor re-framed, only streamed (its Content-Type was checked to be SOAP). A reply that
   * breaks while nothing of it has left the response's buffer is answered with a fault naming the
   * backend; once bytes have gone out, the failure aborts the caller's connection.
   */
  private Outcome relay(HttpServletResponse response, BackendReply reply,
      CountingOutputStream out, SoapVersion version, URI backendUri) throws IOException {
    response.setStatus(reply.status());
    if (reply.body() == null) {
      return new Outcome(reply.status(), null);
    }
    response.setContentType(reply.contentType());
    if (reply.length() >= 0) {
      // with its length known, Jetty sends the reply as one write with its headers, and the
      // caller reads it without chunked framing
      response.setContentLengthLong(reply.length());
    }
    InputStream body = reply.body();
    byte[] chunk = new byte[RELAY_CHUNK];
    while (true) {
      int n;
      try {
        n = body.read(chunk);
      } catch (IOException e) {
        if (response.isCommitted()) {
          throw e; // bytes are out: aborting is the only honest end
        }
        response.reset(); // drops the status, headers and what the buffer held
        return fault(response, Forwarding.failed(version, backendUri, e));
      }
      if (n < 0) {
        return new Outcome(reply.status(), null);
      }
      out.write(chunk, 0, n); // the caller's side failing aborts the exchange as well
    }
  }
}
