package dev.ferry.spring.boot.client.internal;

import dev.ferry.client.SoapClient;
import dev.ferry.jaxws.FerryProvider;
import dev.ferry.jaxws.GuardFeature;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.TlsSettings;
import dev.ferry.soap.MessageGuard;
import dev.ferry.spring.boot.SslBundleTls;
import dev.ferry.spring.boot.client.ClientProperties;
import dev.ferry.spring.boot.client.SoapService;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.spi.ServiceDelegate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.ssl.SslBundles;

/**
 * Makes the bean of one {@code ferry.clients.<name>}: a typed port through Ferry's JAX-WS
 * runtime (whatever other runtime is on the class path), or a {@link SoapService} on a
 * {@link SoapClient} of its own.
 */
public final class ClientBeans {
  private ClientBeans() {}

  /** Fails, naming the property, if {@code p} lacks what every client needs. */
  public static void check(String name, ClientProperties p) {
    if (p.getAddress() == null) {
      throw new IllegalStateException("ferry.clients." + name + ".address is not set: every"
          + " client needs the service's address");
    }
    if (p.getWsSecurity().isEnabled() && !wsSecurityPresent()) {
      throw new IllegalStateException("ferry.clients." + name + ".ws-security is set but"
          + " ferry-wssecurity is not on the class path: add the dependency"
          + " dev.ferry:ferry-wssecurity");
    }
  }

  private static boolean wsSecurityPresent() {
    try {
      Class.forName("dev.ferry.wssecurity.WsSecurity", false, ClientBeans.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** A typed port of {@code p.getServiceInterface()} at {@code p.getAddress()}. */
  public static Object port(String name, ClientProperties p, BeanFactory beans) {
    Class<?> sei = p.getServiceInterface();
    ServiceDelegate service = new FerryProvider().createServiceDelegate(null,
        new QName("urn:dev.ferry:spring-boot", name), Service.class);
    List<WebServiceFeature> features = new ArrayList<>();
    features.add(new MTOMFeature(p.isMtom()));
    MessageGuard guard = guard(name, p);
    if (guard != null) {
      features.add(new GuardFeature(guard));
    }
    Object port = service.getPort(sei, features.toArray(WebServiceFeature[]::new));
    Map<String, Object> context = ((BindingProvider) port).getRequestContext();
    context.put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, p.getAddress().toString());
    context.put("jakarta.xml.ws.client.connectionTimeout", p.getConnectTimeout().toMillis());
    context.put("jakarta.xml.ws.client.receiveTimeout", p.getTimeout().toMillis());
    if (p.getUsername() != null) {
      context.put(BindingProvider.USERNAME_PROPERTY, p.getUsername());
      context.put(BindingProvider.PASSWORD_PROPERTY, p.getPassword());
    }
    TlsSettings tls = tls(name, p, beans);
    if (tls != null) {
      context.put(FerryProvider.TLS_PROPERTY, tls);
    }
    OpenTelemetry otel = openTelemetry(beans);
    if (otel != null) {
      context.put(FerryProvider.OPEN_TELEMETRY_PROPERTY, otel);
    }
    return port;
  }

  /** A {@link SoapService} at {@code p.getAddress()} on a client of its own. */
  public static SoapService service(String name, ClientProperties p, BeanFactory beans) {
    SoapClient.Builder b = SoapClient.builder().connectTimeout(p.getConnectTimeout())
        .timeout(p.getTimeout()).openTelemetry(openTelemetry(beans));
    TlsSettings tls = tls(name, p, beans);
    if (tls != null) {
      b.tls(tls);
    }
    return SoapService.of(b.build(), p.getAddress(), p.getUsername(), p.getPassword(),
        guard(name, p), p.getTimeout());
  }

  /**
   * The application's OpenTelemetry (Micrometer Tracing's bridge makes one), so that the calls'
   * spans join its traces; null without one: the global one, as without Spring.
   */
  private static OpenTelemetry openTelemetry(BeanFactory beans) {
    return beans.getBeanProvider(OpenTelemetry.class).getIfAvailable();
  }

  private static MessageGuard guard(String name, ClientProperties p) {
    return p.getWsSecurity().isEnabled() ? Guards.of(name, p.getWsSecurity()) : null;
  }

  private static TlsSettings tls(String name, ClientProperties p, BeanFactory beans) {
    if (p.getSslBundle() == null) {
      return null;
    }
    SslBundles bundles = beans.getBeanProvider(SslBundles.class).getIfAvailable();
    if (bundles == null) {
      throw new IllegalStateException("ferry.clients." + name + ".ssl-bundle is set but the"
          + " application has no SSL bundles");
    }
    try {
      return SslBundleTls.of(bundles, p.getSslBundle(), ClientAuth.NONE);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("ferry.clients." + name + ".ssl-bundle: "
          + e.getMessage(), e);
    }
  }
}
