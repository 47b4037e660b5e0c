package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "TranslatorService", portName = "TranslatorPort",
    targetNamespace = "urn:ferry:bench:translator")
public class Translator {
  public String upper(@WebParam(name = "text") String text) {
    return text.toUpperCase(java.util.Locale.ROOT);
  }

  public String reverse(@WebParam(name = "text") String text) {
    return new StringBuilder(text).reverse().toString();
  }
}
