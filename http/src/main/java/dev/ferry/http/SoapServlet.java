package dev.ferry.http;

import dev.ferry.bytes.DecodeException;
import dev.ferry.http.internal.CountingInputStream;
import dev.ferry.http.internal.CountingOutputStream;
import dev.ferry.mime.MediaType;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hosts a {@link Dispatcher}'s endpoints in any Jakarta Servlet 6 container ({@link SoapServer}
 * is Ferry's own embedded one).
 *
 * <p>POST carries SOAP 1.1 ({@code text/xml}), SOAP 1.2 ({@code application/soap+xml}) or
 * either as MTOM/SwA ({@code multipart/related}); any other Content-Type is answered 415. GET
 * {@code ?wsdl} serves the dispatcher's WSDL with this URL as the service address; other methods
 * get 405. Input that cannot be read, a limit that is hit, mustUnderstand headers nobody
 * understands, an unknown operation and endpoint failures are SOAP faults (HTTP 500, or 400 for
 * a SOAP 1.2 Sender fault), each naming what went wrong and where. The whole request is read
 * before the reply is written (attachments the endpoint left are spooled), since many HTTP/1.1
 * clients only read once they have sent everything; the request's temp files are deleted when
 * the reply is out.
 */
public class SoapServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Pattern ADDRESS = Pattern.compile(
      "(<(?:[A-Za-z0-9_]+:)?address\\s+location=\")[^\"]*(\")");

  private final transient SoapCodec codec;
  private final transient Dispatcher dispatcher;
  private final transient Metrics metrics;

  public SoapServlet(SoapCodec codec, Dispatcher dispatcher, Metrics metrics) {
    this.codec = codec;
    this.dispatcher = dispatcher;
    this.metrics = metrics;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String query = request.getQueryString();
    if (query == null || !query.equalsIgnoreCase("wsdl") || dispatcher.wsdl() == null) {
      response.setHeader("Allow", "POST");
      response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED,
          "SOAP endpoints take POST (or GET ?wsdl)");
      return;
    }
    String here = request.getRequestURL().toString();
    String wsdl = ADDRESS.matcher(dispatcher.wsdl())
        .replaceAll("$1" + Matcher.quoteReplacement(here) + "$2");
    byte[] bytes = wsdl.getBytes(StandardCharsets.UTF_8);
    response.setContentType("text/xml; charset=UTF-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    long start = System.nanoTime();
    metrics.started();
    CountingInputStream in = new CountingInputStream(request.getInputStream(),
        metrics::requestBytes);
    CountingOutputStream out = new CountingOutputStream(response.getOutputStream());
    int status = 0;
    String note = null;
    try {
      Outcome o = exchange(request, response, in, out);
      status = o.status();
      note = o.note();
    } finally {
      if (status == 0) {
        status = response.getStatus();
        note = "aborted";
      }
      long nanos = System.nanoTime() - start;
      metrics.finished(request.getServletPath(), status, nanos, in.count(), out.count());
      HttpSoap.log(request, status, in.count(), out.count(), nanos, note);
    }
  }

  private record Outcome(int status, String note) {}

  private Outcome exchange(HttpServletRequest request, HttpServletResponse response,
      CountingInputStream in, CountingOutputStream out) throws IOException {
    String contentType = request.getContentType();
    MediaType type;
    SoapVersion version;
    try {
      type = contentType == null ? null : MediaType.parse(contentType);
      version = type == null ? null : HttpSoap.version(type);
    } catch (IllegalArgumentException e) {
      type = null;
      version = null;
    }
    if (version == null) {
      response.sendError(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
          "expected text/xml (SOAP 1.1), application/soap+xml (SOAP 1.2) or multipart/related,"
          + " got " + contentType);
      return new Outcome(415, null);
    }
    MessageBuffer buffer;
    try {
      buffer = codec.read(in, contentType);
    } catch (DecodeException e) {
      Fault f = e.reason().startsWith("unknown SOAP envelope namespace")
          ? Fault.of(version, version.versionMismatchFaultCode(), e.getMessage())
          : FaultReplies.forBadInput(version, e);
      FaultReplies.write(response, codec, f);
      return new Outcome(FaultReplies.status(f), "fault: " + e.getMessage());
    }
    try {
      return answer(request, response, type, buffer, in, out);
    } finally {
      buffer.close();
    }
  }

  private Outcome answer(HttpServletRequest request, HttpServletResponse response,
      MediaType type, MessageBuffer buffer, InputStream in, CountingOutputStream out)
      throws IOException {
    Message message = buffer.toMessage();
    SoapVersion version = message.version();
    Payload reply;
    try {
      reply = handle(message, HttpSoap.soapAction(request, type));
      if (buffer.attachments() != null) {
        buffer.attachments().attachments(); // read (spool) the rest before answering
      }
    } catch (SoapFaultException e) {
      drain(buffer, in);
      FaultReplies.write(response, codec, e.fault());
      return new Outcome(FaultReplies.status(e.fault()), "fault: " + e.getMessage());
    } catch (DecodeException e) {
      Fault f = FaultReplies.forBadInput(version, e);
      FaultReplies.write(response, codec, f);
      return new Outcome(FaultReplies.status(f), "fault: " + e.getMessage());
    } catch (Exception e) {
      drain(buffer, in);
      Fault f = Fault.of(version, version.receiverFaultCode(),
          "the endpoint failed: " + e);
      FaultReplies.write(response, codec, f);
      return new Outcome(FaultReplies.status(f), "fault: " + e);
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

  private Payload handle(Message message, String soapAction) throws Exception {
    SoapVersion version = message.version();
    List<?> missed = message.notUnderstood(dispatcher.understood(), Set.of());
    if (!missed.isEmpty()) {
      throw new SoapFaultException(Fault.of(version, version.mustUnderstandFaultCode(),
          "header blocks not understood: " + missed));
    }
    Endpoint endpoint = dispatcher.select(message, soapAction);
    if (endpoint == null) {
      throw new SoapFaultException(Fault.of(version, version.senderFaultCode(),
          "no operation here for SOAPAction \"" + soapAction + "\", wsa:Action \""
          + message.addressing().action() + "\" or Body element "
          + Dispatcher.firstBodyElement(message)));
    }
    return endpoint.handle(message);
  }

  /** How much may follow a request's message: the codec's MIME epilogue limit. */
  private int epilogueBytes() {
    return codec.limits().xop().mime().maxEpilogueBytes();
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
