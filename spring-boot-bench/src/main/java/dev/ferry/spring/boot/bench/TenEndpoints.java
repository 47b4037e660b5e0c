package dev.ferry.spring.boot.bench;

import dev.ferry.spring.boot.bench.services.Accounts;
import dev.ferry.spring.boot.bench.services.Calculator;
import dev.ferry.spring.boot.bench.services.Checksum;
import dev.ferry.spring.boot.bench.services.Clock;
import dev.ferry.spring.boot.bench.services.Directory;
import dev.ferry.spring.boot.bench.services.Greeter;
import dev.ferry.spring.boot.bench.services.Inventory;
import dev.ferry.spring.boot.bench.services.Orders;
import dev.ferry.spring.boot.bench.services.TestMtom;
import dev.ferry.spring.boot.bench.services.Translator;
import jakarta.xml.ws.Endpoint;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The bench application, whichever starter serves it: ten {@code Endpoint} beans, each
 * published under the starter's path at {@code /<simple class name>} (MTOM on for testMtom),
 * and the testMtom round trip of {@link MtomRoundTrip}. Only the making of an
 * {@code Endpoint} differs between the starters, as it does in CXF's sample.
 */
public final class TenEndpoints {
  static final List<Supplier<Object>> SERVICES = List.of(Greeter::new, Calculator::new,
      Inventory::new, Orders::new, Accounts::new, Clock::new, Translator::new, Checksum::new,
      Directory::new, TestMtom::new);

  /** How a starter's application makes an (unpublished) endpoint. */
  @FunctionalInterface
  public interface EndpointMaker {
    Endpoint make(ApplicationContext context, Object implementor, boolean mtom);
  }

  private TenEndpoints() {
  }

  /** Runs the application of {@code source} with the ten endpoints made by {@code maker}. */
  public static void run(Class<?> source, EndpointMaker maker, String... args) {
    SpringApplication application = new SpringApplication(source);
    application.addInitializers(context -> register((GenericApplicationContext) context, maker));
    application.run(args);
  }

  private static void register(GenericApplicationContext context, EndpointMaker maker) {
    // bench.endpoints=0: the same application without endpoints, the floor of the starter's
    // Spring Boot, web server and Actuator
    int count = context.getEnvironment().getProperty("bench.endpoints", Integer.class, 10);
    for (Supplier<Object> service : SERVICES.subList(0, count)) {
      Object implementor = service.get();
      String name = implementor.getClass().getSimpleName();
      context.registerBean(name + "Endpoint", Endpoint.class, () -> {
        Endpoint endpoint = maker.make(context, implementor, implementor instanceof TestMtom);
        endpoint.publish("/" + name);
        return endpoint;
      });
    }
    context.registerBean(MtomRoundTrip.class, () -> new MtomRoundTrip(context.getEnvironment()));
  }
}
