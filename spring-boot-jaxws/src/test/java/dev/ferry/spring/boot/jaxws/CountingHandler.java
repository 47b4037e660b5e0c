package dev.ferry.spring.boot.jaxws;

import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPHandler;
import jakarta.xml.ws.handler.soap.SOAPMessageContext;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.namespace.QName;

/** A handler bean that counts the requests it sees. */
public class CountingHandler implements SOAPHandler<SOAPMessageContext> {
  final AtomicInteger requests = new AtomicInteger();

  @Override
  public boolean handleMessage(SOAPMessageContext context) {
    if (!(Boolean) context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) {
      requests.incrementAndGet();
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
