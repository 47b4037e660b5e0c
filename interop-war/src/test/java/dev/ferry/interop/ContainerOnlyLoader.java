package dev.ferry.interop;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The parent class loader of a web application deployed by a test: the JDK and the container's
 * own packages, nothing else of the test's class path. The application then loads Ferry, JAXB
 * and its own classes from its {@code WEB-INF} alone, as in a container started on its own.
 */
final class ContainerOnlyLoader extends ClassLoader {
  private static final List<String> CONTAINER = List.of("jakarta.servlet.",
      "jakarta.annotation.", "org.apache.catalina.", "org.apache.tomcat.", "org.apache.juli.",
      "org.apache.naming.", "org.apache.coyote.", "org.eclipse.jetty.");

  private final ClassLoader test;

  ContainerOnlyLoader() {
    super("container-only", ClassLoader.getPlatformClassLoader());
    this.test = ContainerOnlyLoader.class.getClassLoader();
  }

  /** The container's own resources: its JNDI set-up (Jetty's) too. */
  private static final List<String> CONTAINER_RESOURCES = List.of("jndi.properties");

  private static boolean isContainers(String name) {
    return CONTAINER.stream().anyMatch(name::startsWith);
  }

  private static boolean isContainersResource(String name) {
    return CONTAINER_RESOURCES.contains(name) || isContainers(name.replace('/', '.'));
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    return isContainers(name) ? test.loadClass(name) : super.loadClass(name, resolve);
  }

  @Override
  public URL getResource(String name) {
    return isContainersResource(name) ? test.getResource(name) : super.getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    return isContainersResource(name) ? test.getResources(name)
        : Collections.emptyEnumeration();
  }
}
