package dev.ferry.spring.boot.broker;

import dev.ferry.broker.Broker;
import dev.ferry.broker.BrokerOptions;
import dev.ferry.broker.Routes;
import dev.ferry.security.Authenticator;
import dev.ferry.security.PasswordFile;
import dev.ferry.spring.boot.SslBundleTls;
import dev.ferry.spring.boot.broker.internal.BrokerHealth;
import dev.ferry.spring.boot.broker.internal.ManagedBroker;
import dev.ferry.spring.boot.broker.internal.RouteTables;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Ferry's SOAP broker when {@code ferry.broker.routes} or {@code ferry.broker.routes-file} name
 * routes: built (and its routes checked) as the context starts, listening from the start of
 * the application's lifecycle, drained and closed at its end as {@code Broker.close()} drains
 * ({@code ferry.broker.drain-delay}, {@code ferry.broker.drain-timeout}). Its meters
 * ({@code ferry.broker.*}) go to the application's {@code MeterRegistry} too, its spans to the
 * application's {@code OpenTelemetry} where there is one (Micrometer Tracing's OpenTelemetry
 * bridge, {@code management.tracing.*}, or the application's own bean), so that they join its
 * traces, and a health indicator ({@code ferryBroker}) reports it where Actuator's health is
 * present.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure"
        + ".CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration"})
@ConditionalOnClass(Broker.class)
@Conditional(FerryBrokerAutoConfiguration.RoutesGiven.class)
@EnableConfigurationProperties(BrokerProperties.class)
public class FerryBrokerAutoConfiguration {
  /** Made by Spring. */
  public FerryBrokerAutoConfiguration() {}

  /** The broker, under the application's lifecycle. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public ManagedBroker ferryBroker(BrokerProperties properties,
      ObjectProvider<SslBundles> ssl, ObjectProvider<MeterRegistry> registry,
      ObjectProvider<OpenTelemetry> otel, ConfigurableEnvironment environment) {
    Routes routes = RouteTables.of(properties);
    Broker.Builder b = Broker.builder().routes(routes).host(properties.getHost())
        .port(properties.getPort()).name(properties.getName())
        .options(BrokerOptions.builder().drainDelay(properties.getDrainDelay())
            .drainTimeout(properties.getDrainTimeout()).build())
        .openTelemetry(otel.getIfAvailable()); // null without it: the global one, as elsewhere
    registry.ifAvailable(b::meterRegistry);
    if (properties.getSslBundle() != null) {
      SslBundles bundles = ssl.getIfAvailable();
      if (bundles == null) {
        throw new IllegalStateException("ferry.broker.ssl-bundle is set but the application"
            + " has no SSL bundles");
      }
      try {
        b.tls(SslBundleTls.of(bundles, properties.getSslBundle(), properties.getClientAuth()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ferry.broker.ssl-bundle: " + e.getMessage(), e);
      }
    }
    if (properties.getUsers() != null) {
      try {
        b.authenticator(Authenticator.basic(PasswordFile.load(properties.getUsers())));
      } catch (IOException e) {
        throw new UncheckedIOException("ferry.broker.users: cannot read "
            + properties.getUsers() + ": " + e.getMessage(), e);
      }
    }
    return new ManagedBroker(b.build(), routes, environment);
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "ferryBrokerHealthIndicator")
    HealthIndicator ferryBrokerHealthIndicator(ManagedBroker ferryBroker) {
      return new BrokerHealth(ferryBroker);
    }
  }

  /** {@code ferry.broker.routes} or {@code ferry.broker.routes-file} is set. */
  static final class RoutesGiven extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context,
        AnnotatedTypeMetadata metadata) {
      Binder binder = Binder.get(context.getEnvironment());
      boolean file = binder.bind("ferry.broker.routes-file", String.class).isBound();
      boolean routes = binder.bind("ferry.broker.routes[0]",
          Bindable.mapOf(String.class, Object.class)).isBound();
      return file || routes ? ConditionOutcome.match("ferry.broker routes are given")
          : ConditionOutcome.noMatch("neither ferry.broker.routes nor"
              + " ferry.broker.routes-file is set");
    }
  }
}
