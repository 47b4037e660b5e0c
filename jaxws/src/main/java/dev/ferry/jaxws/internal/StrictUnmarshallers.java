package dev.ferry.jaxws.internal;

import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Unmarshaller;
import jakarta.xml.bind.ValidationEvent;
import org.glassfish.jaxb.runtime.api.JAXBRIContext;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The unmarshallers of one JAXB context, made with an event handler that stops at the first
 * error: JAXB's own default carries on, so {@code <arg0>abc</arg0>} for an {@code int} would
 * silently become 0. Made as needed and kept for reuse (one per call in flight at most), so a
 * call costs no unmarshaller of its own. Thread-safe.
 */
final class StrictUnmarshallers {
  private final JAXBRIContext context;
  private final ConcurrentLinkedQueue<Unmarshaller> idle = new ConcurrentLinkedQueue<>();

  StrictUnmarshallers(JAXBRIContext context) {
    this.context = context;
  }

  Unmarshaller take() throws JAXBException {
    Unmarshaller u = idle.poll();
    if (u == null) {
      u = context.createUnmarshaller();
      u.setEventHandler(StrictUnmarshallers::stopOnError);
    }
    return u;
  }

  void give(Unmarshaller u) {
    u.setAttachmentUnmarshaller(null);
    idle.offer(u);
  }

  private static boolean stopOnError(ValidationEvent event) {
    return event.getSeverity() == ValidationEvent.WARNING;
  }
}
