package dev.ferry.broker;

import java.util.Objects;
import javax.xml.namespace.QName;

/**
 * One thing a request must have for a {@link Route} to take it; a route takes a request that
 * has all of its conditions. Those on the HTTP head and the SOAP header cost a look at what the
 * index of the envelope holds; a {@link Body} condition reads the Body as far as it must.
 */
public sealed interface RouteCondition {
  /** An HTTP header of the request (its first value). */
  record HttpHeader(String name, TextMatch value) implements RouteCondition {
    public HttpHeader {
      Objects.requireNonNull(name);
      Objects.requireNonNull(value);
    }
  }

  /** The SOAPAction: the HTTP header, or SOAP 1.2's {@code action} media type parameter. */
  record SoapAction(TextMatch value) implements RouteCondition {
    public SoapAction {
      Objects.requireNonNull(value);
    }
  }

  /** The text of the {@code wsa:Action} header block. */
  record WsaAction(TextMatch value) implements RouteCondition {
    public WsaAction {
      Objects.requireNonNull(value);
    }
  }

  /** wsa:Action or SOAPAction equal to {@code action}: a route's {@code action} key. */
  record Action(String action) implements RouteCondition {
    public Action {
      Objects.requireNonNull(action);
    }
  }

  /** The text of the first SOAP header block called {@code name} (one with only text). */
  record SoapHeader(QName name, TextMatch value) implements RouteCondition {
    public SoapHeader {
      Objects.requireNonNull(name);
      Objects.requireNonNull(value);
    }
  }

  /**
   * An expression on the Body's content. A request routed by its Body is forwarded only if the
   * Body read is the one the backend reads: one Body, the Envelope's last child, and no element
   * called Body in the Header ({@code MessageBuffer.checkShape}); else it gets a Sender fault.
   */
  record Body(BodyPath path) implements RouteCondition {
    public Body {
      Objects.requireNonNull(path);
    }
  }
}
