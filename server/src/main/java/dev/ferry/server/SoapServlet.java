package dev.ferry.server;

import dev.ferry.bytes.DecodeException;
import dev.ferry.mime.MediaType;
import dev.ferry.server.internal.CountingOutputStream;
import dev.ferry.server.internal.FaultReplies;
import dev.ferry.server.internal.HttpSoap;
import dev.ferry.server.internal.SoapHttpServlet;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.namespace.QName;

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
public class SoapServlet extends SoapHttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Pattern ADDRESS = Pattern.compile(
      "(<(?:[A-Za-z0-9_]+:)?address\\b[^>]*?\\slocation=\")[^\"]*(\")");

  private final transient Dispatcher dispatcher;

  public SoapServlet(SoapCodec codec, Dispatcher dispatcher, Metrics metrics) {
    super(codec, metrics);
    this.dispatcher = dispatcher;
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
  public String meterName(HttpServletRequest request) {
    return request.getServletPath();
  }

  @Override
  public Outcome handle(HttpServletRequest request, HttpServletResponse response,
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
      return fault(response, e.fault());
    } catch (DecodeException e) {
      return fault(response, FaultReplies.forBadInput(version, e));
    } catch (Exception e) {
      drain(buffer, in);
      return fault(response, Fault.of(version, version.receiverFaultCode(),
          "the endpoint failed: " + e));
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
      QName element = message.buffer().bodyElement();
      throw new SoapFaultException(Fault.of(version, version.senderFaultCode(),
          "no operation here for SOAPAction \"" + soapAction + "\", wsa:Action \""
          + message.addressing().action() + "\" or "
          + (element == null ? "an empty Body (it holds no element)" : "Body element " + element)));
    }
    return endpoint.handle(message);
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
