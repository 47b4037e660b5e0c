package dev.ferry.server.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Writes SOAP faults as servlet responses, with the status the SOAP version asks for. */
public final class FaultReplies {
  private FaultReplies() {}

  /** Writes {@code fault} as the whole response; returns the bytes written. */
  public static long write(HttpServletResponse response, SoapCodec codec, Fault fault)
      throws IOException {
    return write(response, codec, fault, SoapBinding.status(fault));
  }

  /** As {@link #write(HttpServletResponse, SoapCodec, Fault)}, with another HTTP status. */
  public static long write(HttpServletResponse response, SoapCodec codec, Fault fault,
      int status) throws IOException {
    ByteString envelope = fault.toEnvelope(codec);
    response.setStatus(status);
    response.setContentType(SoapBinding.contentType(fault.version()));
    response.setContentLength(envelope.size());
    envelope.writeTo(response.getOutputStream());
    return envelope.size();
  }
}
