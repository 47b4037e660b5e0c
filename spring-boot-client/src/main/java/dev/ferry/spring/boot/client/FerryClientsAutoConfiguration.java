package dev.ferry.spring.boot.client;

import dev.ferry.spring.boot.client.internal.ClientBeans;
import java.util.Map;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Makes one bean per {@code ferry.clients.<name>}, named {@code <name>}: a typed JAX-WS port
 * of its {@code service-interface} on Ferry's runtime, or else a {@link SoapService}. Several
 * coexist, each with its own address, timeouts, TLS (an SSL bundle), HTTP Basic credentials
 * and WS-Security; inject them by name ({@code @Qualifier("quotes")}) where there are several
 * of a type.
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration")
@EnableConfigurationProperties(ClientsProperties.class)
public class FerryClientsAutoConfiguration {
  /** Made by Spring. */
  public FerryClientsAutoConfiguration() {}

  /** Registers the clients' beans from the properties, before any bean is made. */
  @Bean
  static BeanDefinitionRegistryPostProcessor ferryClientBeans() {
    return new Registrar();
  }

  /** Binds {@code ferry.clients} (a bad value fails here, named) and defines a bean each. */
  static final class Registrar implements BeanDefinitionRegistryPostProcessor,
      EnvironmentAware {
    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
      this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
      Map<String, ClientProperties> clients = Binder.get(environment).bind("ferry.clients",
          Bindable.mapOf(String.class, ClientProperties.class)).orElse(Map.of());
      ConfigurableListableBeanFactory beans = (ConfigurableListableBeanFactory) registry;
      clients.forEach((name, p) -> {
        ClientBeans.check(name, p);
        RootBeanDefinition d;
        if (p.getServiceInterface() != null) {
          @SuppressWarnings("unchecked")
          Class<Object> sei = (Class<Object>) p.getServiceInterface();
          d = new RootBeanDefinition(sei, () -> ClientBeans.port(name, p, beans));
        } else {
          d = new RootBeanDefinition(SoapService.class,
              () -> ClientBeans.service(name, p, beans));
          d.setDestroyMethodName("close");
        }
        registry.registerBeanDefinition(name, d);
      });
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {}
  }
}
