package dev.ferry.war;

import jakarta.xml.ws.Provider;
import jakarta.xml.ws.ServiceMode;
import jakarta.xml.ws.WebServiceProvider;
import javax.xml.transform.Source;

/** A {@code Provider} endpoint of raw XML: the Body's content comes back as it came. */
@WebServiceProvider(serviceName = "RawEchoService", portName = "RawEchoPort",
    targetNamespace = "urn:ferry:war:raw")
@ServiceMode(jakarta.xml.ws.Service.Mode.PAYLOAD)
public class RawEcho implements Provider<Source> {
  @Override
  public Source invoke(Source request) {
    return request;
  }
}
