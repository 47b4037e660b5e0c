package dev.ferry.jaxws;

import jakarta.jws.WebService;

/** A service endpoint interface that tells the caller who the endpoint thinks it is. */
@WebService(name = "Teller", targetNamespace = Teller.NS)
public interface Teller {
  String NS = "urn:ferry:teller";

  /** Returns {@code "<principal> <role>=<isUserInRole(role)>"}, or {@code nobody ...}. */
  String whoAmI(String role);
}
