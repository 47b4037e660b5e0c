package dev.ferry.spring.boot.jaxws;

import dev.ferry.security.Authenticator;
import dev.ferry.security.PasswordFile;
import dev.ferry.server.Metrics;
import dev.ferry.server.ServerOptions;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.spring.boot.SslBundleTls;
import dev.ferry.spring.boot.jaxws.internal.EndpointBeans;
import dev.ferry.spring.boot.jaxws.internal.EndpointsHealth;
import dev.ferry.spring.boot.jaxws.internal.OwnServer;
import dev.ferry.spring.boot.jaxws.internal.ServedEndpoints;
import dev.ferry.spring.boot.jaxws.internal.ServletEndpoints;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.xml.ws.WebServiceContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.CommonAnnotationBeanPostProcessor;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Serves the application's {@code @WebService} and {@code @WebServiceProvider} beans, and its
 * {@code jakarta.xml.ws.Endpoint} beans, on Ferry's JAX-WS runtime under
 * {@code ferry.jaxws.path}: in Spring Boot's embedded servlet container where the application
 * has one, else on Ferry's own server ({@code ferry.jaxws.server.*}). Their meters go to the
 * application's {@code MeterRegistry} where there is one (Actuator), their spans to the
 * application's {@code OpenTelemetry} where there is one (Micrometer Tracing's OpenTelemetry
 * bridge, {@code management.tracing.*}), so that they join its traces, and a health indicator
 * ({@code ferryJaxws}) reports them where Actuator's health is present.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure"
        + ".CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration"})
@ConditionalOnClass(jakarta.xml.ws.Endpoint.class)
@EnableConfigurationProperties(JaxwsProperties.class)
public class FerryJaxwsAutoConfiguration {
  /** Made by Spring. */
  public FerryJaxwsAutoConfiguration() {}

  /**
   * Leaves an endpoint's {@code @Resource WebServiceContext} to the JAX-WS runtime: Spring 7's
   * {@code @Resource} injection no longer skips it, and would fail start-up for want of such
   * a bean.
   */
  @Bean
  static BeanFactoryPostProcessor ferryJaxwsResourceTypes() {
    return beans -> beans.getBeansOfType(CommonAnnotationBeanPostProcessor.class, true, false)
        .values().forEach(p -> p.ignoreResourceType(WebServiceContext.class.getName()));
  }

  /** The endpoints served, once they start. */
  @Bean
  public ServedEndpoints ferryJaxwsEndpoints() {
    return new ServedEndpoints();
  }

  /** The endpoints' meters ({@code ferry.server.*}), in the application's registry too. */
  @Bean
  @ConditionalOnMissingBean(name = "ferryServerMetrics")
  public Metrics ferryServerMetrics(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry r = registry.getIfAvailable();
    return r == null ? Metrics.create("ferry.server") : Metrics.create("ferry.server", r);
  }

  static SoapCodec codec(JaxwsProperties p) {
    return SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
        .attachmentMemoryBytes(p.getAttachmentMemoryBytes()).build()).build(),
        XopCodec.builder());
  }

  static ServerOptions.Builder options(JaxwsProperties p, ObjectProvider<OpenTelemetry> otel) {
    // null without the application's: the global one, as without Spring
    ServerOptions.Builder o = ServerOptions.builder().maxRequests(p.getMaxRequests())
        .openTelemetry(otel.getIfAvailable());
    if (p.getPublicAddress() != null) {
      o.publicAddress(p.getPublicAddress());
    }
    return o;
  }

  /** In Spring Boot's embedded servlet container. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class InServletContainer {
    @Bean
    ServletContextInitializer ferryJaxwsServlets(ListableBeanFactory beans,
        JaxwsProperties properties, ServedEndpoints served, Metrics ferryServerMetrics,
        ObjectProvider<OpenTelemetry> otel) {
      SoapCodec codec = codec(properties);
      return new ServletEndpoints(new EndpointBeans(beans, properties, codec), served, codec,
          ferryServerMetrics, options(properties, otel).build());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {
      @Bean
      @ConditionalOnMissingBean(name = "ferryJaxwsHealthIndicator")
      HealthIndicator ferryJaxwsHealthIndicator(ServedEndpoints served,
          Metrics ferryServerMetrics) {
        return new EndpointsHealth(served, ferryServerMetrics, null);
      }
    }
  }

  /** On Ferry's own server, where there is no servlet container. */
  @Configuration(proxyBeanMethods = false)
  @Conditional(NotServlet.class)
  static class OnOwnServer {
    @Bean
    OwnServer ferryJaxwsServer(ListableBeanFactory beans, JaxwsProperties properties,
        ServedEndpoints served, Metrics ferryServerMetrics, ObjectProvider<SslBundles> ssl,
        ObjectProvider<OpenTelemetry> otel) {
      SoapCodec codec = codec(properties);
      JaxwsProperties.Server s = properties.getServer();
      ServerOptions.Builder o = options(properties, otel).requestTimeout(s.getRequestTimeout())
          .idleTimeout(s.getIdleTimeout());
      if (s.getUsers() != null) {
        o.authenticator(users(s));
      }
      dev.ferry.security.TlsSettings tls = null;
      if (s.getSslBundle() != null) {
        SslBundles bundles = ssl.getIfAvailable();
        if (bundles == null) {
          throw new IllegalStateException("ferry.jaxws.server.ssl-bundle is set but the"
              + " application has no SSL bundles");
        }
        tls = SslBundleTls.of(bundles, s.getSslBundle(), s.getClientAuth());
        ferryServerMetrics.certificate(tls);
      }
      return new OwnServer(new EndpointBeans(beans, properties, codec), served, codec,
          ferryServerMetrics, o.build(), new OwnServer.Listener(s.getHost(), s.getPort(), tls));
    }

    private static Authenticator users(JaxwsProperties.Server s) {
      try {
        return Authenticator.basic(PasswordFile.load(s.getUsers()));
      } catch (IOException e) {
        throw new UncheckedIOException("ferry.jaxws.server.users: cannot read " + s.getUsers()
            + ": " + e.getMessage(), e);
      }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {
      @Bean
      @ConditionalOnMissingBean(name = "ferryJaxwsHealthIndicator")
      HealthIndicator ferryJaxwsHealthIndicator(ServedEndpoints served,
          Metrics ferryServerMetrics, OwnServer ferryJaxwsServer) {
        return new EndpointsHealth(served, ferryServerMetrics, ferryJaxwsServer);
      }
    }
  }

  /** Not a servlet web application: none, or reactive. */
  static class NotServlet extends NoneNestedConditions {
    NotServlet() {
      super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Servlet {}
  }
}
