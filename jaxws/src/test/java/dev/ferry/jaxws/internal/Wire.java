package dev.ferry.jaxws.internal;

import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/** Writes a message as it goes on the wire and reads it back, as a peer would receive it. */
final class Wire {
  static final SoapCodec CODEC = SoapCodec.create();

  final String contentType;
  final byte[] bytes;

  private Wire(String contentType, byte[] bytes) {
    this.contentType = contentType;
    this.bytes = bytes;
  }

  static Wire write(SoapVersion version, MtomPolicy policy, List<HeaderBlock> headers,
      Payload.BodyWriter body) throws IOException {
    Payload p = CODEC.payload(version, policy, headers, body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.writeTo(out);
    return new Wire(p.contentType(), out.toByteArray());
  }

  MessageBuffer read() throws IOException {
    return CODEC.read(new ByteArrayInputStream(bytes), contentType);
  }

  /** The message as text (attachments as their raw bytes, Latin-1). */
  String text() {
    return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
  }
}
