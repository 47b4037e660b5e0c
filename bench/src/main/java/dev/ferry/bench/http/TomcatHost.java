package dev.ferry.bench.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;

/**
 * An embedded Tomcat 11 on loopback with its defaults (the NIO connector, 200 threads) and one
 * web application, set up by the caller before {@link #start()}: the same container for the WAR
 * benchmarks of every stack.
 */
final class TomcatHost implements AutoCloseable {
  private final Path base;
  private final Tomcat tomcat = new Tomcat();
  private final Context context;

  TomcatHost(String contextPath) throws IOException {
    base = Files.createTempDirectory("ferry-bench-tomcat");
    tomcat.setBaseDir(base.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    Path docBase = Files.createDirectories(base.resolve("webapp/WEB-INF"));
    context = tomcat.addContext(contextPath, docBase.getParent().toString());
  }

  Context context() {
    return context;
  }

  /** The application's folder (its {@code WEB-INF} exists). */
  Path docBase() {
    return base.resolve("webapp");
  }

  TomcatHost start() throws LifecycleException {
    tomcat.start();
    return this;
  }

  /** {@code http://127.0.0.1:port} + the context path + {@code path}. */
  String url(String path) {
    return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + context.getPath() + path;
  }

  @Override
  public void close() throws Exception {
    tomcat.stop();
    tomcat.destroy();
    try (Stream<Path> files = Files.walk(base)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
