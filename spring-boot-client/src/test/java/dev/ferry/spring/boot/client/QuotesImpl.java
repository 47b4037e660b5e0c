package dev.ferry.spring.boot.client;

import jakarta.jws.WebService;

/** CXF's implementation of {@link Quotes}. */
@WebService(endpointInterface = "dev.ferry.spring.boot.client.Quotes",
    serviceName = "QuotesService", targetNamespace = Quotes.NS)
public class QuotesImpl implements Quotes {
  @Override
  public double price(String symbol) {
    return symbol.length() * 10.5;
  }
}
