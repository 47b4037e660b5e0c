package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.Payload;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPMessage;
import java.io.IOException;
import java.io.OutputStream;

/** Payloads of bytes already made: a SAAJ message written out, an envelope a Source gave. */
final class Payloads {
  private Payloads() {}

  /** {@code bytes} as a message of {@code contentType}. */
  static Payload of(String contentType, ByteString bytes) {
    return new Payload() {
      @Override
      public String contentType() {
        return contentType;
      }

      @Override
      public void writeTo(OutputStream out) throws IOException {
        bytes.writeTo(out);
      }
    };
  }

  /** A SAAJ message as it goes on the wire: its bytes (attachments included), its type. */
  static Payload of(SOAPMessage m) throws IOException {
    ByteStringBuilder bytes = new ByteStringBuilder(4096);
    String type = write(m, bytes);
    return of(type, bytes.toByteString());
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
