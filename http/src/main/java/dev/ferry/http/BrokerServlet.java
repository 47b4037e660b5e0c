package dev.ferry.http;

import dev.ferry.bytes.DecodeException;
import dev.ferry.http.internal.CountingOutputStream;
import dev.ferry.mime.MediaType;
import dev.ferry.soap.Fault;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpTimeoutException;
import javax.xml.namespace.QName;

/**
 * The broker's request path: read the caller's envelope (attachments stay unread in the
 * connection), pick the route, rewrite wsa:To and add a trace header on the message's overlay
 * (the body is never parsed), stream envelope and attachments to the backend as they arrive,
 * then stream the backend's reply back as it came (not parsed: nothing in it changes). Memory
 * per exchange is a few buffers, whatever the attachments' sizes; nothing touches a disk unless
 * an audit copy is asked for.
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
  static final QName TRACE = new QName("urn:dev.ferry:trace", "Trace", "ferry");

  private final transient BackendClient backend;
  private final transient Routes routes;
  private final transient Audit audit;
  private final String name;

  BrokerServlet(SoapCodec codec, BackendClient backend, Routes routes, Metrics metrics, Audit audit,
      String name) {
    super(codec, metrics);
    this.backend = backend;
    this.routes = routes;
    this.audit = audit;
    this.name = name;
  }

  @Override
  String meterName(HttpServletRequest request) {
    return request.getRequestURI();
  }

  @Override
  Outcome handle(HttpServletRequest request, HttpServletResponse response,
      MediaType type, MessageBuffer buffer, InputStream in, CountingOutputStream out)
      throws IOException {
    Message message = buffer.toMessage();
    SoapVersion version = message.version();
    String soapAction = HttpSoap.soapAction(request, type);
    String action = message.addressing().action();
    Routes.Route route = routes.match(request.getRequestURI(), action, soapAction);
    if (route == null) {
      return fault(response, Fault.of(version, version.senderFaultCode(), "no route for "
          + request.getRequestURI() + " with action " + (action != null ? action : soapAction)));
    }
    if (message.addressing().to() != null) {
      message.addressing().setTo(route.to().toString());
    }
    message.addHeader(HeaderBlock.text(TRACE, name + " " + Long.toHexString(System.nanoTime())));
    Audit.Copy copy = audit.open(route);
    Payload payload = copy.wrap(message.toPayload());
    BackendReply reply;
    try {
      // what came in, plus room for the trace header and a longer wsa:To
      long length = request.getContentLengthLong();
      reply = backend.call(route.to(), payload, soapAction, length < 0 ? 0 : length + 1024);
    } catch (DecodeException e) {
      copy.discard();
      return fault(response, FaultReplies.forBadInput(version, e));
    } catch (HttpTimeoutException e) {
      copy.discard();
      return fault(response, Fault.of(version, version.receiverFaultCode(), "the backend "
          + route.to() + " timed out: " + e.getMessage()));
    } catch (IOException e) {
      copy.discard();
      return fault(response, Fault.of(version, version.receiverFaultCode(), "the backend "
          + route.to() + " failed: " + describe(e)));
    }
    copy.complete();
    // the message went on; what the caller sent after it has not been read yet
    HttpSoap.readToEnd(in, epilogueBytes());
    try (reply) {
      return relay(response, reply, out);
    }
  }

  /**
   * Passes the backend's reply on as it came: the broker changes nothing in it, so it is neither
   * parsed nor re-framed, only streamed (its Content-Type was checked to be SOAP).
   */
  private Outcome relay(HttpServletResponse response, BackendReply reply,
      CountingOutputStream out) throws IOException {
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
    reply.body().transferTo(out); // a failure from here on aborts the caller's connection
    return new Outcome(reply.status(), null);
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
