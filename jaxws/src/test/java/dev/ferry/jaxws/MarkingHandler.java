package dev.ferry.jaxws;

import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPHandler;
import jakarta.xml.ws.handler.soap.SOAPMessageContext;
import java.util.Set;
import javax.xml.namespace.QName;

/** A handler a {@code @HandlerChain} file names: it marks each request it saw. */
public class MarkingHandler implements SOAPHandler<SOAPMessageContext> {
  static final String PROPERTY = "dev.ferry.jaxws.marked";

  @Override
  public boolean handleMessage(SOAPMessageContext context) {
    if (!(Boolean) context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) {
      context.put(PROPERTY, Boolean.TRUE);
      context.setScope(PROPERTY, MessageContext.Scope.APPLICATION);
    }
    return true;
  }

  @Override
  public boolean handleFault(SOAPMessageContext context) {
    return true;
  }

  @Override
  public void close(MessageContext context) {}

  @Override
  public Set<QName> getHeaders() {
    return Set.of();
  }
}
