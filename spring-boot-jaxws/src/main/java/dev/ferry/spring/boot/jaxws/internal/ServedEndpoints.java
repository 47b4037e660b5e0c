package dev.ferry.spring.boot.jaxws.internal;

import dev.ferry.server.SoapServer;
import dev.ferry.spring.boot.jaxws.JaxwsEndpoints;
import java.net.URI;
import java.util.List;
import org.springframework.beans.factory.DisposableBean;

/**
 * The endpoints being served, set once by whichever host started them (the servlet container's
 * initializer or Ferry's own server); stops them with the application context.
 */
public final class ServedEndpoints implements JaxwsEndpoints, DisposableBean {
  private volatile List<EndpointBeans.Hosted> hosted = List.of();
  private volatile SoapServer ownServer;
  private volatile boolean started;

  void started(List<EndpointBeans.Hosted> endpoints, SoapServer server) {
    this.hosted = List.copyOf(endpoints);
    this.ownServer = server;
    this.started = true;
  }

  boolean started() {
    return started;
  }

  List<EndpointBeans.Hosted> hosted() {
    return hosted;
  }

  @Override
  public List<Served> endpoints() {
    return hosted.stream().map(h -> new Served(h.bean(), h.path(), h.implementation()))
        .toList();
  }

  @Override
  public URI ownServerUri(String path) {
    SoapServer s = ownServer;
    return s == null ? null : s.uri(path);
  }

  /** Stops every endpoint: {@code @PreDestroy} of those Spring does not manage. */
  @Override
  public void destroy() {
    List<EndpointBeans.Hosted> h = hosted;
    hosted = List.of();
    h.forEach(e -> e.endpoint().stop());
  }
}
