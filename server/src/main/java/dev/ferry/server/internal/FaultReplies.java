package dev.ferry.server.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;

/** Writes SOAP faults as servlet responses, with the status the SOAP version asks for. */
public final class FaultReplies {
  private FaultReplies() {}

  /**
   * Writes {@code fault} as the whole response, its envelope to {@code out} (the response's
   * stream, or one that counts what goes through it); returns the bytes written.
   */
  public static long write(HttpServletResponse response, OutputStream out, SoapCodec codec,
      Fault fault) throws IOException {
    return write(response, out, codec, fault, SoapBinding.status(fault));
  }

  /** As {@link #write(HttpServletResponse, OutputStream, SoapCodec, Fault)}, another status. */
  public static long write(HttpServletResponse response, OutputStream out, SoapCodec codec,
      Fault fault, int status) throws IOException {
    ByteString envelope = fault.toEnvelope(codec);
    response.setStatus(status);
    response.setContentType(SoapBinding.contentType(fault.version()));
    response.setContentLength(envelope.size());
    envelope.writeTo(out);
    return envelope.size();
  }
}
