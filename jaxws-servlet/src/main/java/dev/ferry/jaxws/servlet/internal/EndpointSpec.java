package dev.ferry.jaxws.servlet.internal;

import java.util.List;
import javax.xml.namespace.QName;

/**
 * One endpoint to deploy, as a descriptor names it or as found by discovery.
 *
 * @param name the endpoint's name (the servlet's, in the container)
 * @param implementation the implementation's class name
 * @param urlPattern where in the application it answers ({@code /echo})
 * @param wsdl the WSDL's location in the application ({@code WEB-INF/wsdl/x.wsdl}), or null
 * @param service the WSDL service, or null for the annotation's
 * @param port the WSDL port, or null for the annotation's
 * @param binding the binding ID, or null for the annotation's
 * @param mtom MTOM on or off, or null for the annotation's
 * @param mtomThreshold the MTOM threshold in bytes, or null
 * @param handlers the handler classes of its chain, in order
 * @param origin where it was named, for messages ({@code WEB-INF/sun-jaxws.xml, line 4})
 */
public record EndpointSpec(String name, String implementation, String urlPattern, String wsdl,
    QName service, QName port, String binding, Boolean mtom, Integer mtomThreshold,
    List<String> handlers, String origin) {

  /** How messages name it: {@code endpoint "echo" (WEB-INF/sun-jaxws.xml, line 4)}. */
  public String describe() {
    return "endpoint \"" + name + "\" (" + origin + ")";
  }
}
