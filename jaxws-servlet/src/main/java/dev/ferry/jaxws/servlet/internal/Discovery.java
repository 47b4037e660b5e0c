package dev.ferry.jaxws.servlet.internal;

import jakarta.jws.WebService;
import jakarta.xml.ws.WebServiceProvider;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The endpoints of an application without a descriptor: each concrete class the container
 * found with {@code @WebService} or {@code @WebServiceProvider} (interfaces, abstract classes
 * and service endpoint interfaces are not endpoints), at {@code /} + its service name.
 */
public final class Discovery {
  private Discovery() {}

  /** One spec per endpoint class of {@code found} (null: none), in class name order. */
  public static List<EndpointSpec> specs(Set<Class<?>> found) {
    List<EndpointSpec> out = new ArrayList<>();
    if (found == null) {
      return out;
    }
    found.stream().filter(Discovery::isEndpoint).sorted(Comparator.comparing(Class::getName))
        .forEach(c -> out.add(new EndpointSpec(serviceName(c), c.getName(),
            "/" + serviceName(c), null, null, null, null, null, null, List.of(),
            "found in the application: " + c.getName())));
    return out;
  }

  private static boolean isEndpoint(Class<?> c) {
    return !c.isInterface() && !Modifier.isAbstract(c.getModifiers())
        && Modifier.isPublic(c.getModifiers()) && (c.isAnnotationPresent(WebService.class)
        || c.isAnnotationPresent(WebServiceProvider.class));
  }

  private static String serviceName(Class<?> c) {
    WebService ws = c.getAnnotation(WebService.class);
    String name = ws != null ? ws.serviceName()
        : c.getAnnotation(WebServiceProvider.class).serviceName();
    return name.isEmpty() ? c.getSimpleName() + "Service" : name;
  }
}
