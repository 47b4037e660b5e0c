package dev.ferry.war;

import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.ws.WebServiceContext;
import java.security.Principal;

/** {@link Teller}: the servlet container's caller and roles, through the JAX-WS context. */
@WebService(serviceName = "TellerService", portName = "TellerPort", targetNamespace = Teller.NS,
    endpointInterface = "dev.ferry.war.Teller")
public class TellerImpl implements Teller {
  @Resource
  private WebServiceContext context;

  @Override
  public String whoAmI(String role) {
    Principal p = context.getUserPrincipal();
    boolean handled = Boolean.TRUE.equals(context.getMessageContext()
        .get(MarkingHandler.PROPERTY));
    return (p == null ? "nobody" : p.getName()) + " " + role + "=" + context.isUserInRole(role)
        + (handled ? " handled" : "");
  }
}
