package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "GreeterService", portName = "GreeterPort",
    targetNamespace = "urn:ferry:bench:greeter")
public class Greeter {
  public String sayHello(@WebParam(name = "name") String name) {
    return "Hello, " + name + "!";
  }

  public String sayGoodbye(@WebParam(name = "name") String name) {
    return "Goodbye, " + name + "!";
  }
}
