package dev.ferry.jaxws.servlet.internal;

import dev.ferry.server.ServerOptions;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.net.URI;

/**
 * What a web application's context parameters set for its endpoints: the requests served at
 * once, the public address written into WSDLs, and the attachment bytes held in memory before a
 * temp file takes the rest. The container owns TLS, callers and timeouts.
 */
public final class WebAppSettings {
  /** Context parameter: requests served at once per endpoint, then 503. */
  public static final String MAX_REQUESTS = "dev.ferry.maxRequests";
  /** Context parameter: the address callers know the application by, for the WSDLs. */
  public static final String PUBLIC_ADDRESS = "dev.ferry.publicAddress";
  /** Context parameter: bytes of an attachment held in memory before it is spooled. */
  public static final String ATTACHMENT_MEMORY_BYTES = "dev.ferry.attachmentMemoryBytes";

  private final ServerOptions options;
  private final SoapCodec codec;

  private WebAppSettings(ServerOptions options, SoapCodec codec) {
    this.options = options;
    this.codec = codec;
  }

  /** Reads the parameters of {@code context}. */
  public static WebAppSettings of(ServletContext context) throws DeploymentException {
    ServerOptions.Builder o = ServerOptions.builder();
    String max = context.getInitParameter(MAX_REQUESTS);
    if (max != null) {
      o.maxRequests(number(MAX_REQUESTS, max));
    }
    String address = context.getInitParameter(PUBLIC_ADDRESS);
    if (address != null) {
      try {
        // the servlet adds the request's path, which holds the context path
        o.publicAddress(URI.create(address.strip()));
      } catch (IllegalArgumentException e) {
        throw new DeploymentException("context parameter " + PUBLIC_ADDRESS + "=\"" + address
            + "\" is not a URL: " + e.getMessage());
      }
    }
    XopLimits.Builder xop = XopLimits.builder();
    String memory = context.getInitParameter(ATTACHMENT_MEMORY_BYTES);
    if (memory != null) {
      xop.attachmentMemoryBytes(number(ATTACHMENT_MEMORY_BYTES, memory));
    }
    SoapCodec codec = SoapCodec.create(SoapLimits.builder().xop(xop.build()).build(),
        XopCodec.builder());
    return new WebAppSettings(o.build(), codec);
  }

  private static int number(String name, String value) throws DeploymentException {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new DeploymentException("context parameter " + name + "=\"" + value + "\" (expected:"
        + " a whole number, 1 or more)");
  }

  public ServerOptions options() {
    return options;
  }

  public SoapCodec codec() {
    return codec;
  }

  /** Fails if another servlet of the application is mapped to the endpoint's URL pattern. */
  public void checkFree(ServletContext context, EndpointSpec spec) throws DeploymentException {
    for (ServletRegistration r : context.getServletRegistrations().values()) {
      if (r.getMappings().contains(spec.urlPattern())) {
        throw new DeploymentException(spec.describe() + ": url-pattern " + spec.urlPattern()
            + " is already the servlet " + r.getName() + "'s");
      }
    }
  }
}
