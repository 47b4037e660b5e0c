package dev.ferry.server.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.DecodeException;
import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.soap.VersionMismatchException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.xml.namespace.QName;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;

/** Writes SOAP faults as HTTP responses, with the status each SOAP version's binding asks for. */
public final class FaultReplies {
  /** Ferry's namespace for fault subcodes and details. */
  public static final String FERRY_NS = "urn:dev.ferry:fault";

  private FaultReplies() {}

  /** The HTTP status of a response carrying {@code fault} (see {@link SoapBinding#status}). */
  public static int status(Fault fault) {
    return SoapBinding.status(fault);
  }

  /** Returns the fault for input that could not be read: a Sender fault naming what and where. */
  public static Fault forBadInput(SoapVersion version, DecodeException e) {
    Fault f = Fault.of(version, version.senderFaultCode(), e.getMessage());
    if (e.isLimitExceeded()) {
      f = f.withSubcode(new QName(FERRY_NS, "LimitExceeded", "ferry"))
          .withDetail("<ferry:limit xmlns:ferry=\"" + FERRY_NS + "\" name=\""
              + e.limitName() + "\" value=\"" + e.limitValue() + "\" actual=\""
              + e.actualValue() + "\"/>");
    }
    return f;
  }

  /**
   * Returns the fault for a request whose message could not be read: VersionMismatch for an
   * envelope of an unknown namespace, else as {@link #forBadInput}.
   */
  public static Fault forUnreadableRequest(SoapVersion version, DecodeException e) {
    if (e instanceof VersionMismatchException) {
      return Fault.of(version, version.versionMismatchFaultCode(), e.getMessage());
    }
    return forBadInput(version, e);
  }

  /** Writes {@code fault} as the whole response; returns the bytes written. */
  public static long write(HttpServletResponse response, SoapCodec codec, Fault fault)
      throws IOException {
    ByteString envelope = fault.toEnvelope(codec);
    response.setStatus(status(fault));
    response.setContentType(contentType(fault));
    response.setContentLength(envelope.size());
    envelope.writeTo(response.getOutputStream());
    return envelope.size();
  }

  /**
   * Sets the status and headers of a response of Jetty's core API that is to carry
   * {@code fault}; returns the envelope, to be written as its body.
   */
  public static ByteString begin(Response response, SoapCodec codec, Fault fault)
      throws IOException {
    ByteString envelope = fault.toEnvelope(codec);
    response.setStatus(status(fault));
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType(fault));
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, envelope.size());
    return envelope;
  }

  private static String contentType(Fault fault) {
    return SoapBinding.contentType(fault.version());
  }
}
