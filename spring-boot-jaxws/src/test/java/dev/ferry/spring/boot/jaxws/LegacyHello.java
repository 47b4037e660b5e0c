package dev.ferry.spring.boot.jaxws;

import jakarta.jws.WebService;

/** An implementation published the CXF way: an {@code Endpoint} bean published at a path. */
@WebService(endpointInterface = "dev.ferry.spring.boot.jaxws.Greeter",
    serviceName = "LegacyService", portName = "LegacyPort", targetNamespace = Greeter.NS)
public class LegacyHello implements Greeter {
  @Override
  public String sayHello(String name) {
    return "Legacy hello, " + name;
  }

  @Override
  public String whoAmI() {
    return "legacy";
  }

  @Override
  public byte[] echo(byte[] data) {
    return data;
  }
}
