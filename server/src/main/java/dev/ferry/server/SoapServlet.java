package dev.ferry.server;

import dev.ferry.bytes.DecodeException;
import dev.ferry.mime.MediaType;
import dev.ferry.server.internal.Callers;
import dev.ferry.server.internal.CountingInputStream;
import dev.ferry.server.internal.CountingOutputStream;
import dev.ferry.server.internal.ExchangeLog;
import dev.ferry.server.internal.FaultReplies;
import dev.ferry.server.internal.HttpSoap;
import dev.ferry.server.internal.ServletHeaders;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.tracing.internal.SoapSpans;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.namespace.QName;

/**
 * Hosts a {@link Dispatcher}'s endpoints in any Jakarta Servlet 6 container ({@link SoapServer}
 * is Ferry's own embedded one).
 *
 * <p>POST carries SOAP 1.1 ({@code text/xml}), SOAP 1.2 ({@code application/soap+xml}) or
 * either as MTOM/SwA ({@code multipart/related}); any other Content-Type, and any
 * Content-Encoding, is answered 415. GET {@code ?wsdl} serves the dispatcher's WSDL with the
 * service's address (the configured public one, else the address the request came in on, never
 * the request's Host), and {@code ?wsdl=KEY} and {@code ?xsd=KEY} the documents it imports
 * ({@link WsdlDocuments}); other methods get 405. Input that cannot be read, a limit that is hit,
 * mustUnderstand headers nobody understands, an unknown operation and endpoint failures are SOAP
 * faults (HTTP 500, or 400 for a SOAP 1.2 Sender fault), each naming what went wrong and where;
 * past {@link ServerOptions#maxRequests} a request gets 503 at once. The whole request is read
 * before the reply is written (attachments the endpoint left are spooled), since many HTTP/1.1
 * clients only read once they have sent everything; the request's temp files are deleted when
 * the reply is out.
 */
public class SoapServlet extends HttpServlet {
  private static final System.Logger LOG = System.getLogger("dev.ferry.server");
  private static final long serialVersionUID = 1L;
  /** The most of a refused request's rest read so that its client can read the fault. */
  private static final int DROP_BYTES = 256 * 1024 * 1024;

  private final transient SoapCodec codec;
  private final transient Dispatcher dispatcher;
  private final transient Metrics metrics;
  private final transient ServerOptions options;
  private final transient AtomicInteger inFlight = new AtomicInteger();
  private final transient SoapSpans spans;
  /** The server span's name for the path last served ({@code POST /path}), made once. */
  private transient volatile String[] spanName = {"", ""};

  public SoapServlet(SoapCodec codec, Dispatcher dispatcher, Metrics metrics) {
    this(codec, dispatcher, metrics, ServerOptions.DEFAULTS);
  }

  public SoapServlet(SoapCodec codec, Dispatcher dispatcher, Metrics metrics,
      ServerOptions options) {
    this.codec = codec;
    this.dispatcher = dispatcher;
    this.metrics = metrics;
    this.options = options;
    this.spans = SoapSpans.orGlobal(options.openTelemetry(), "dev.ferry.server");
  }

  /**
   * What became of one exchange, for the metrics, the access log and the span.
   *
   * @param faultCode the code of the fault answered, or null
   */
  private record Outcome(int status, String note, QName faultCode) {
    Outcome(int status, String note) {
      this(status, note, null);
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String query = request.getQueryString();
    WsdlDocuments documents = dispatcher.wsdlDocuments();
    if (documents == null || !WsdlDocuments.isDocumentQuery(query)) {
      notAllowed(response);
      return;
    }
    if (options.authenticator() != null
        && Callers.authenticate(options.authenticator(), request, response) == null) {
      return;
    }
    String document = documents.document(query, address(request));
    if (document == null) {
      response.sendError(HttpServletResponse.SC_NOT_FOUND, "no document " + query
          + " here: the WSDL is at ?wsdl");
      return;
    }
    byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
    response.setContentType("text/xml; charset=UTF-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** The service's address: the public one configured, else where the request came in. */
  private String address(HttpServletRequest request) {
    String base = options.publicAddress() != null
        ? options.publicAddress().toString().replaceAll("/+$", "")
        : request.getScheme() + "://" + hostForUrl(request.getLocalAddr()) + ":"
            + request.getLocalPort();
    return base + request.getRequestURI();
  }

  private static String hostForUrl(String host) {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  @Override
  protected void doPut(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    notAllowed(response);
  }

  @Override
  protected void doDelete(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    notAllowed(response);
  }

  @Override
  protected void doOptions(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    notAllowed(response);
  }

  @Override
  protected void doTrace(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    notAllowed(response); // a TRACE would echo the caller's headers, cookies included
  }

  private static void notAllowed(HttpServletResponse response) throws IOException {
    response.setHeader("Allow", "POST, GET");
    response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED,
        "SOAP endpoints take POST (or GET ?wsdl)");
  }

  @Override
  protected final void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    long start = System.nanoTime();
    metrics.started();
    ExchangeLog log = ExchangeLog.open(options.messageLog(), request, response);
    CountingInputStream in = new CountingInputStream(log.request().tap(
        request.getInputStream()), metrics::requestBytes);
    CountingOutputStream out = new CountingOutputStream(log.reply().tap(
        response.getOutputStream()));
    Outcome outcome = null;
    Throwable failure = null;
    boolean admitted = inFlight.incrementAndGet() <= options.maxRequests();
    Context traced = spans.startServer(request, ServletHeaders.GETTER, spanName(request),
        request.getServletPath(), request.getScheme(), request.getRemoteAddr());
    try (Scope scope = traced.makeCurrent()) {
      outcome = admitted ? intake(request, response, in, out, log)
          : busy(request, response, out);
    } catch (IOException | RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      inFlight.decrementAndGet();
      if (outcome == null) {
        outcome = new Outcome(response.getStatus(), "aborted mid-reply");
      }
      long nanos = System.nanoTime() - start;
      metrics.finished(request.getServletPath(), outcome.status(), nanos, in.count(),
          out.count());
      SoapSpans.endServer(Span.fromContext(traced), outcome.status(), in.count(), out.count(),
          outcome.faultCode(), failure);
      HttpSoap.log(request, outcome.status(), in.count(), out.count(), nanos, outcome.note());
      log.finish();
    }
  }

  /** {@code POST /path}, made once per path rather than once per request. */
  private String spanName(HttpServletRequest request) {
    String path = request.getServletPath();
    String[] last = spanName;
    if (!last[0].equals(path)) {
      last = new String[] {path, "POST " + path};
      spanName = last;
    }
    return last[1];
  }

  private Outcome intake(HttpServletRequest received, HttpServletResponse response,
      CountingInputStream in, CountingOutputStream out, ExchangeLog log) throws IOException {
    HttpServletRequest request = received;
    if (options.authenticator() != null) {
      request = Callers.authenticate(options.authenticator(), received, response);
      if (request == null) {
        return new Outcome(response.getStatus(), "not authenticated");
      }
    }
    String contentType = request.getContentType();
    MediaType type = HttpSoap.mediaType(contentType);
    SoapVersion version = type == null ? null : SoapBinding.version(type);
    if (version == null) {
      response.sendError(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
          "expected text/xml (SOAP 1.1), application/soap+xml (SOAP 1.2) or multipart/related,"
          + " got " + contentType);
      return new Outcome(415, null);
    }
    String coding = HttpSoap.unknownTransferCoding(request);
    if (coding != null) {
      response.setHeader("Connection", "close"); // the body's framing cannot be trusted
      response.sendError(HttpServletResponse.SC_NOT_IMPLEMENTED, "Transfer-Encoding " + coding
          + " is not implemented: send the message with chunked or a Content-Length only");
      return new Outcome(501, null);
    }
    String encoding = request.getHeader("Content-Encoding");
    if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
      response.sendError(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, "Content-Encoding "
          + encoding + " is not accepted: send the message uncompressed");
      return new Outcome(415, null);
    }
    MessageBuffer buffer;
    try {
      buffer = codec.read(in, type, request.getContentLengthLong());
    } catch (DecodeException e) {
      dropRest(in);
      return fault(response, out, Fault.forBadInput(version, e));
    }
    log.requestRead();
    try {
      Fault mismatch = versionMismatch(version, buffer.version(), contentType);
      if (mismatch != null) {
        drain(buffer, in);
        return fault(response, out, mismatch);
      }
      return serve(request, response, type, buffer, in, out);
    } catch (DecodeException e) {
      drain(buffer, in);
      return fault(response, out, Fault.forBadInput(version, e));
    } finally {
      buffer.close();
    }
  }

  /**
   * The VersionMismatch fault for an envelope of a SOAP version the endpoint does not speak, or
   * of another version than its media type says (as CXF answers both); null if all agree. It is
   * written in the version the media type says if the endpoint speaks it, else in the
   * endpoint's.
   */
  private Fault versionMismatch(SoapVersion typed, SoapVersion sent, String contentType) {
    if (typed == sent && dispatcher.accepts(sent)) {
      return null;
    }
    SoapVersion answer = dispatcher.accepts(typed) ? typed : dispatcher.versions().iterator()
        .next();
    String why = typed != sent ? "the envelope is " + name(sent) + " but its Content-Type "
        + contentType + " says " + name(typed)
        : "this endpoint speaks " + name(answer) + ", the envelope is " + name(sent);
    return Fault.of(answer, answer.versionMismatchFaultCode(), why);
  }

  private static String name(SoapVersion v) {
    return v == SoapVersion.SOAP_11 ? "SOAP 1.1" : "SOAP 1.2";
  }

  /** Past {@link ServerOptions#maxRequests}: 503, a Receiver fault, and when to come back. */
  private Outcome busy(HttpServletRequest request, HttpServletResponse response,
      OutputStream out) throws IOException {
    MediaType type = HttpSoap.mediaType(request.getContentType());
    SoapVersion v = type == null ? null : SoapBinding.version(type);
    SoapVersion version = v == null ? SoapVersion.SOAP_11 : v;
    Fault f = Fault.of(version, version.receiverFaultCode(), "the server is busy: "
        + options.maxRequests() + " requests are in progress, the most it serves at once"
        + " (ServerOptions.maxRequests); try again");
    response.setHeader("Retry-After", "1");
    response.setHeader("Connection", "close"); // the request's body is not read
    FaultReplies.write(response, out, codec, f, 503);
    return new Outcome(503, "fault: " + f.reason(), f.code());
  }

  private Outcome serve(HttpServletRequest request, HttpServletResponse response,
      MediaType type, MessageBuffer buffer, InputStream in, CountingOutputStream out)
      throws IOException {
    Message message = buffer.toMessage();
    SoapVersion version = message.version();
    Payload reply;
    try {
      MessageGuard guard = dispatcher.guard();
      HttpServletRequest http = request;
      MessageGuard.Opened opened = null;
      if (guard != null) {
        buffer.checkBody(); // within the limits before the guard parses it
        opened = guard.open(message);
        message = opened.message();
        if (opened.principal() != null) {
          http = Callers.withPrincipal(request, opened.principal(), "WS-Security");
        }
      }
      reply = dispatch(message, opened, HttpSoap.soapAction(request, type), http);
      if (guard != null && reply != null) {
        reply = guard.protect(reply);
      }
      int attachments = 0;
      if (buffer.attachments() != null) {
        // read (spool) the rest before answering
        attachments = buffer.attachments().attachments().size();
      }
      SoapSpans.message(Span.current(), version, attachments);
    } catch (SoapFaultException e) {
      drain(buffer, in);
      return fault(response, out, e.fault());
    } catch (FaultException e) {
      drain(buffer, in);
      return fault(response, out, e.fault());
    } catch (DecodeException e) {
      drain(buffer, in);
      return fault(response, out, Fault.forBadInput(version, e));
    } catch (Exception e) {
      drain(buffer, in);
      // the caller learns that the endpoint failed and what it said, not the classes involved
      LOG.log(System.Logger.Level.WARNING, "the endpoint at " + request.getRequestURI()
          + " failed", e);
      return fault(response, out, Fault.of(version, version.receiverFaultCode(),
          "the endpoint failed" + (e.getMessage() == null ? "" : ": " + e.getMessage())));
    }
    HttpSoap.readToEnd(in, epilogueBytes());
    if (reply == null) {
      response.setStatus(HttpServletResponse.SC_ACCEPTED);
      return new Outcome(202, null);
    }
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(reply.contentType());
    reply.writeTo(out);
    return new Outcome(200, null);
  }

  private Payload dispatch(Message message, MessageGuard.Opened opened, String soapAction,
      HttpServletRequest http) throws Exception {
    SoapVersion version = message.version();
    List<HeaderBlock> missed = message.notUnderstood(dispatcher.understood(), Set.of());
    if (!missed.isEmpty()) {
      throw new SoapFaultException(Fault.of(version, version.mustUnderstandFaultCode(),
          "header blocks not understood: " + missed.stream().map(b -> b.name().toString())
              .collect(java.util.stream.Collectors.joining(", "))));
    }
    Endpoint endpoint = dispatcher.select(message, soapAction, opened);
    if (endpoint != null) {
      name(endpoint, message.buffer().bodyElement());
    }
    if (endpoint == null || !endpoint.readsWholeBody()) {
      // every endpoint, parsing its Body or not, gets one within the limits
      message.buffer().checkBody();
    }
    if (endpoint == null) {
      QName element = message.buffer().bodyElement();
      throw new SoapFaultException(Fault.of(version, version.senderFaultCode(),
          "no operation here for SOAPAction \"" + soapAction + "\", wsa:Action \""
          + message.addressing().action() + "\" or "
          + (element == null ? "an empty Body (it holds no element)" : "Body element " + element)));
    }
    return endpoint.handle(message, http);
  }

  /**
   * Names the request's span after the operation: the endpoint's and the dispatcher's names
   * where they give them, else the Body element's (only for a request an endpoint took, so
   * that what callers send cannot make up span names).
   */
  private void name(Endpoint endpoint, QName element) {
    String method = endpoint.operation();
    String service = dispatcher.service();
    if (element != null) {
      method = method != null ? method : element.getLocalPart();
      service = service != null ? service : element.getNamespaceURI();
    }
    SoapSpans.operation(Span.current(), service, method);
  }

  private Outcome fault(HttpServletResponse response, OutputStream out, Fault fault)
      throws IOException {
    FaultReplies.write(response, out, codec, fault);
    return new Outcome(SoapBinding.status(fault), "fault: " + fault.reason(), fault.code());
  }

  /** How much may follow a request's message: the codec's MIME epilogue limit. */
  private int epilogueBytes() {
    return codec.limits().xop().mime().maxEpilogueBytes();
  }

  /**
   * Reads and drops what is left of a request refused before its message was read (a limit hit
   * early, such as a Content-Length over {@code maxRootBytes}): an HTTP/1.1 client that sends
   * everything before it reads would otherwise never get to the fault. Bounded by
   * {@link #DROP_BYTES}; past it the connection closes instead.
   */
  private static void dropRest(InputStream in) {
    try {
      HttpSoap.readToEnd(in, DROP_BYTES);
    } catch (IOException e) {
      // the fault is the answer; a broken rest changes nothing
    }
  }

  /** Reads the rest of a request that is answered with a fault, so the client can read it. */
  private void drain(MessageBuffer buffer, InputStream in) {
    try {
      if (buffer.attachments() != null) {
        buffer.attachments().attachments();
      }
      HttpSoap.readToEnd(in, epilogueBytes());
    } catch (IOException e) {
      // the fault is the answer; a broken rest changes nothing
    }
  }
}
