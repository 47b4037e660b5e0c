package dev.ferry.spring.boot.jaxws;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.ws.WebServiceContext;
import java.security.Principal;
import java.util.concurrent.atomic.AtomicInteger;

/** A Spring bean that is a JAX-WS endpoint; counts the calls of its {@code @PostConstruct}. */
@WebService(endpointInterface = "dev.ferry.spring.boot.jaxws.Greeter",
    serviceName = "GreeterService", portName = "GreeterPort", targetNamespace = Greeter.NS)
public class GreeterService implements Greeter {
  final AtomicInteger constructed = new AtomicInteger();
  private final String greeting;

  @Resource
  private WebServiceContext context;

  public GreeterService(String greeting) {
    this.greeting = greeting;
  }

  @PostConstruct
  void constructed() {
    constructed.incrementAndGet();
  }

  @Override
  public String sayHello(String name) {
    return greeting + ", " + name + "!";
  }

  @Override
  public String whoAmI() {
    Principal p = context.getUserPrincipal();
    return (p == null ? "anonymous" : p.getName()) + " admin=" + context.isUserInRole("ADMIN");
  }

  @Override
  public byte[] echo(byte[] data) {
    return data;
  }
}
