package dev.ferry.spring.boot.client;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** The service the client tests call, served by CXF. */
@WebService(name = "Quotes", targetNamespace = Quotes.NS)
public interface Quotes {
  String NS = "urn:ferry:test:quotes";

  double price(@WebParam(name = "symbol") String symbol);
}
