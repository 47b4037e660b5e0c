package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.annotation.Resource;
import jakarta.jws.HandlerChain;
import jakarta.jws.WebService;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.WebServiceException;
import org.junit.jupiter.api.Test;

/** An endpoint's {@code @HandlerChain} file: its handlers run; a missing file is refused. */
class HandlerChainTest {
  /** A teller whose chain comes from {@code teller-handlers.xml} next to this class. */
  @WebService(serviceName = "TellerService", portName = "TellerPort",
      targetNamespace = Teller.NS, endpointInterface = "dev.ferry.jaxws.Teller")
  @HandlerChain(file = "teller-handlers.xml")
  public static class Chained implements Teller {
    @Resource
    private WebServiceContext context;

    @Override
    public String whoAmI(String role) {
      return "marked=" + context.getMessageContext().get(MarkingHandler.PROPERTY);
    }
  }

  /** A chain file that is not there. */
  @WebService(serviceName = "TellerService", portName = "TellerPort",
      targetNamespace = Teller.NS, endpointInterface = "dev.ferry.jaxws.Teller")
  @HandlerChain(file = "no-such-handlers.xml")
  public static class Unchained extends TellerImpl {}

  @Test
  void theHandlersOfTheFileTheAnnotationNamesRunBeforeTheImplementation() {
    String address = Ports.url("/chained");
    Endpoint e = Endpoint.publish(address, new Chained());
    try {
      assertThat(e.getBinding().getHandlerChain()).hasSize(1)
          .first().isInstanceOf(MarkingHandler.class);
      assertThat(SecureEndpointTest.port(address, null).whoAmI("x")).isEqualTo("marked=true");
    } finally {
      e.stop();
    }
  }

  @Test
  void aMissingChainFileIsNamedWhenTheEndpointIsMade() {
    assertThatThrownBy(() -> Endpoint.create(new Unchained()))
        .isInstanceOf(WebServiceException.class)
        .hasMessage("@HandlerChain(file = \"no-such-handlers.xml\") of "
            + Unchained.class.getName() + ": no such file next to the class (or on the class"
            + " path, for a name starting with /)");
  }
}
