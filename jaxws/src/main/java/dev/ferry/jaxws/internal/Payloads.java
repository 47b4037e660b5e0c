package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.RootFilter;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.WebServiceException;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/** Payloads of bytes already made (a SAAJ message written out), and one that closes after. */
final class Payloads {
  private Payloads() {}

  /**
   * A SAAJ message as it goes on the wire: its bytes (attachments included), its type. A guard's
   * filter reads them with {@code codec} first (only then: without a guard they go out as
   * they are).
   */
  static Payload of(SOAPMessage m, SoapCodec codec) throws IOException {
    ByteStringBuilder out = new ByteStringBuilder(4096);
    String type = write(m, out);
    ByteString bytes = out.toByteString();
    return new Payload() {
      @Override
      public String contentType() {
        return type;
      }

      @Override
      public void writeTo(OutputStream to) throws IOException {
        bytes.writeTo(to);
      }

      @Override
      public Payload withRootFilter(RootFilter filter) {
        try {
          MessageBuffer read = codec.read(bytes, type);
          try {
            return closing(read.toMessage().toPayload().withRootFilter(filter), read);
          } catch (RuntimeException e) {
            read.close();
            throw e;
          }
        } catch (IOException e) {
          throw new WebServiceException("cannot read the message to secure it: "
              + e.getMessage(), e);
        }
      }
    };
  }

  /** {@code p}, closing {@code resource} once written. */
  static Payload closing(Payload p, Closeable resource) {
    return new Payload() {
      @Override
      public String contentType() {
        return p.contentType();
      }

      @Override
      public void writeTo(OutputStream out) throws IOException {
        try {
          p.writeTo(out);
        } finally {
          resource.close();
        }
      }

      @Override
      public Payload withRootFilter(RootFilter filter) { // a guard protecting it
        return closing(p.withRootFilter(filter), resource);
      }
    };
  }

  /** Writes {@code m} (saving its changes first); returns its Content-Type. */
  static String write(SOAPMessage m, ByteStringBuilder out) throws IOException {
    try {
      if (m.saveRequired()) {
        m.saveChanges();
      }
      m.writeTo(out.asOutputStream());
      String[] type = m.getMimeHeaders().getHeader("Content-Type");
      return type == null ? null : type[0];
    } catch (SOAPException e) {
      throw new IOException("cannot write the SAAJ message: " + e.getMessage(), e);
    }
  }
}
