package dev.ferry.spring.boot.ldap;

import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.server.LdapServer;
import dev.ferry.spring.boot.ldap.internal.EmbeddedConnectionDetails;
import dev.ferry.spring.boot.ldap.internal.EmbeddedDirectory;
import dev.ferry.spring.boot.ldap.internal.LdapHealth;
import dev.ferry.spring.boot.ldap.internal.Pools;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.ldap.autoconfigure.LdapConnectionDetails;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * An embedded Ferry directory when {@code ferry.ldap.embedded.base-dn} is set (where the
 * application has {@code ferry-ldap-server}), and an {@link LdapPool} bean
 * ({@code ferryLdapPool}) to {@code ferry.ldap.pool.urls} or else to that directory. The pool's
 * meters ({@code ferry.ldap.pool.*}) go to the application's {@code MeterRegistry}, a health
 * indicator ({@code ferryLdap}) reports the pool where Actuator's health is present, and Spring
 * Boot's LDAP auto-configuration (Spring LDAP's {@code ContextSource} and
 * {@code LdapTemplate}) connects to the embedded directory where the application has it.
 */
@AutoConfiguration(
    beforeName = "org.springframework.boot.ldap.autoconfigure.LdapAutoConfiguration",
    afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure"
            + ".CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration"})
@ConditionalOnClass(LdapPool.class)
@EnableConfigurationProperties(LdapProperties.class)
public class FerryLdapAutoConfiguration {
  /** Made by Spring. */
  public FerryLdapAutoConfiguration() {}

  /** The pool to {@code ferry.ldap.pool.urls}, where there is no embedded directory. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @Conditional(PoolOnly.class)
  public LdapPool ferryLdapPool(LdapProperties properties, ObjectProvider<SslBundles> ssl,
      ObjectProvider<MeterRegistry> registry) {
    return Pools.build(properties.getPool(), null, ssl.getIfAvailable(),
        registry.getIfAvailable());
  }

  /** Fails start-up: an embedded directory is asked for, but its server is not there. */
  @Bean
  @Conditional(EmbeddedWanted.class)
  @ConditionalOnMissingClass("dev.ferry.ldap.server.LdapServer")
  Object ferryLdapServerMissing() {
    throw new IllegalStateException("ferry.ldap.embedded.base-dn is set, but the directory"
        + " server (dev.ferry:ferry-ldap-server) is not on the class path");
  }

  /** The pool's health, where there is no embedded directory. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @Conditional(PoolOnly.class)
  static class PoolHealth {
    @Bean
    @ConditionalOnMissingBean(name = "ferryLdapHealthIndicator")
    HealthIndicator ferryLdapHealthIndicator(LdapPool ferryLdapPool) {
      return new LdapHealth(ferryLdapPool, null, null);
    }
  }

  /** Ferry's directory server in the application, and a pool to it. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(LdapServer.class)
  @Conditional(EmbeddedWanted.class)
  static class Embedded {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LdapServer ferryLdapServer(LdapProperties properties, ApplicationContext context,
        ObjectProvider<SslBundles> ssl) {
      return EmbeddedDirectory.start(properties.getEmbedded(), context, ssl.getIfAvailable(),
          (ConfigurableEnvironment) context.getEnvironment());
    }

    /** The pool to {@code ferry.ldap.pool.urls}, or else to the embedded directory. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LdapPool ferryLdapPool(LdapProperties properties, LdapServer ferryLdapServer,
        ObjectProvider<SslBundles> ssl, ObjectProvider<MeterRegistry> registry) {
      return Pools.build(properties.getPool(), ferryLdapServer.url(), ssl.getIfAvailable(),
          registry.getIfAvailable());
    }

    /** Spring Boot's LDAP auto-configuration connects to the embedded directory. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(LdapConnectionDetails.class)
    static class SpringLdap {
      @Bean
      @ConditionalOnMissingBean
      LdapConnectionDetails ferryLdapConnectionDetails(LdapServer ferryLdapServer,
          LdapProperties properties, ApplicationContext context) {
        return new EmbeddedConnectionDetails(ferryLdapServer.url(), properties.getEmbedded(),
            context.getEnvironment().getProperty("spring.ldap.base"));
      }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Health {
      @Bean
      @ConditionalOnMissingBean(name = "ferryLdapHealthIndicator")
      HealthIndicator ferryLdapHealthIndicator(ObjectProvider<LdapPool> pool,
          LdapServer ferryLdapServer) {
        return new LdapHealth(pool.getIfAvailable(), ferryLdapServer::url,
            ferryLdapServer::entryCount);
      }
    }
  }

  /** {@code ferry.ldap.embedded.base-dn} names a naming context. */
  static final class EmbeddedWanted extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context,
        AnnotatedTypeMetadata metadata) {
      return bound(context, "ferry.ldap.embedded.base-dn");
    }
  }

  /** Pool URLs are set, and no embedded directory is. */
  static final class PoolOnly extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context,
        AnnotatedTypeMetadata metadata) {
      ConditionOutcome embedded = bound(context, "ferry.ldap.embedded.base-dn");
      return embedded.isMatch() ? ConditionOutcome.noMatch(embedded.getMessage())
          : bound(context, "ferry.ldap.pool.urls");
    }
  }

  private static ConditionOutcome bound(ConditionContext context, String property) {
    boolean set = !Binder.get(context.getEnvironment()).bind(property,
        Bindable.listOf(String.class)).orElse(List.of()).isEmpty();
    return set ? ConditionOutcome.match(property + " is set")
        : ConditionOutcome.noMatch(property + " is not set");
  }
}
