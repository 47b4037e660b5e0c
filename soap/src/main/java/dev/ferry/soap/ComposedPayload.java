package dev.ferry.soap;

import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.RootFilter;
import dev.ferry.xop.XopWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import javax.xml.stream.XMLStreamException;

/**
 * A new message written through an {@link XopWriter}: the envelope, the given header blocks,
 * then the Body whose content a {@link Payload.BodyWriter} writes. The writer is created up front
 * (over a deferred sink) so that its Content-Type, boundary included, is known before writing.
 */
final class ComposedPayload implements Payload {
  private final SoapCodec codec;
  private final MtomPolicy policy;
  private final SoapVersion version;
  private final List<HeaderBlock> headers;
  private final Payload.BodyWriter body;
  private final MessagePayload.DeferredOutputStream sink;
  private final XopWriter writer;

  ComposedPayload(SoapCodec codec, SoapVersion version, MtomPolicy policy,
      List<HeaderBlock> headers, Payload.BodyWriter body) {
    this(codec, version, policy, headers, body, null);
  }

  private ComposedPayload(SoapCodec codec, SoapVersion version, MtomPolicy policy,
      List<HeaderBlock> headers, Payload.BodyWriter body, RootFilter filter) {
    this.codec = codec;
    this.policy = policy;
    this.version = version;
    this.headers = headers;
    this.body = body;
    this.sink = new MessagePayload.DeferredOutputStream();
    try {
      this.writer = filter == null ? codec.xop().newWriter(sink, policy, version.type())
          : codec.xop().newWriter(sink, policy, version.type(), filter);
    } catch (IOException e) {
      throw new IllegalStateException("an in-memory sink failed", e);
    }
  }

  @Override
  public String contentType() {
    return writer.contentType();
  }

  @Override
  public Payload withRootFilter(RootFilter filter) {
    return new ComposedPayload(codec, version, policy, headers, body, filter);
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    sink.connect(out);
    String env = version.namespace();
    try {
      writer.writeStartDocument("UTF-8", "1.0");
      writer.writeStartElement("soap", "Envelope", env);
      writer.writeNamespace("soap", env);
      if (!headers.isEmpty()) {
        writer.writeStartElement("soap", "Header", env);
        for (HeaderBlock h : headers) {
          writer.writeRaw(h.xml().utf8());
        }
        writer.writeEndElement();
      }
      writer.writeStartElement("soap", "Body", env);
      body.write(writer);
      writer.writeEndElement();
      writer.writeEndElement();
      writer.writeEndDocument();
      writer.close();
    } catch (XMLStreamException e) {
      throw e.getCause() instanceof IOException io ? io
          : new IOException("cannot write the message: " + e.getMessage(), e);
    }
    out.flush();
  }
}
