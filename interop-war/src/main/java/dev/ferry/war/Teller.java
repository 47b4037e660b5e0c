package dev.ferry.war;

import jakarta.jws.WebService;

/** A code-first service that tells its caller who the container says it is. */
@WebService(name = "Teller", targetNamespace = Teller.NS)
public interface Teller {
  String NS = "urn:ferry:war:teller";

  /**
   * Returns {@code "<principal> <role>=<isUserInRole(role)>"} and, when the descriptor's
   * handler saw the request first, {@code " handled"}.
   */
  String whoAmI(String role);
}
