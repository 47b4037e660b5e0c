package dev.ferry.spring.boot.jaxws;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** The service the starter's tests serve and call. */
@WebService(name = "Greeter", targetNamespace = Greeter.NS)
public interface Greeter {
  String NS = "urn:ferry:test:greeter";

  String sayHello(@WebParam(name = "name") String name);

  /** The caller's name and whether it has the role ADMIN, as the endpoint sees them. */
  String whoAmI();

  byte[] echo(@WebParam(name = "data") byte[] data);
}
