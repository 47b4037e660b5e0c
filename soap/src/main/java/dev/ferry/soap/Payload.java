package dev.ferry.soap;

import dev.ferry.xop.RootFilter;
import dev.ferry.xop.XopWriter;
import java.io.IOException;
import java.io.OutputStream;
import javax.xml.stream.XMLStreamException;

/**
 * What goes on the wire for one message: a Content-Type (for the HTTP header, known before a
 * byte is written), then the bytes, streamed. A payload is written once.
 *
 * <p>{@link Message#toPayload()} sends a received (and possibly changed) message with its
 * attachments; {@link SoapCodec#payload} composes a new one whose body is written through an
 * {@link XopWriter}, binary content going inline or attached as an MTOM policy says.
 */
public interface Payload {
  /** Returns the value of the Content-Type header. */
  String contentType();

  /**
   * Writes the message to {@code out} (and does not close it).
   *
   * @throws IllegalStateException if the payload was written before: a payload is written once
   */
  void writeTo(OutputStream out) throws IOException;

  /**
   * Returns this payload with its envelope changed by {@code filter} on the way out, once it is
   * written whole; the attachments are not passed through it and stream after it as before.
   * This payload is not to be written afterwards (the returned one writes in its place).
   *
   * @throws UnsupportedOperationException for a payload that cannot hand its envelope over (one
   *     written by hand); those of {@link SoapCodec#payload} and {@link Message#toPayload} can
   */
  default Payload withRootFilter(RootFilter filter) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot filter its"
        + " envelope: make the payload with SoapCodec.payload or Message.toPayload");
  }

  /** Writes the content of a composed message's Body. */
  @FunctionalInterface
  interface BodyWriter {
    /** Writes the Body's children to {@code body}; the Body element itself is written around. */
    void write(XopWriter body) throws XMLStreamException, IOException;
  }
}
