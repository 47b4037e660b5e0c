package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "CalculatorService", portName = "CalculatorPort",
    targetNamespace = "urn:ferry:bench:calculator")
public class Calculator {
  public long add(@WebParam(name = "a") long a, @WebParam(name = "b") long b) {
    return a + b;
  }

  public double divide(@WebParam(name = "a") double a, @WebParam(name = "b") double b) {
    return a / b;
  }
}
