package dev.ferry.jaxws;

import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.ws.WebServiceContext;
import java.security.Principal;

/** {@link Teller}: what {@code WebServiceContext} says of the caller. */
@WebService(serviceName = "TellerService", portName = "TellerPort", targetNamespace = Teller.NS,
    endpointInterface = "dev.ferry.jaxws.Teller")
public class TellerImpl implements Teller {
  @Resource
  private WebServiceContext context;

  @Override
  public String whoAmI(String role) {
    Principal p = context.getUserPrincipal();
    return (p == null ? "nobody" : p.getName()) + " " + role + "=" + context.isUserInRole(role);
  }
}
