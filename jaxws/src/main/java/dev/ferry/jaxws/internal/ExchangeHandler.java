package dev.ferry.jaxws.internal;

import dev.ferry.jaxws.ServerFeature;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Metrics;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServlet;
import dev.ferry.soap.SoapCodec;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.spi.http.HttpContext;
import jakarta.xml.ws.spi.http.HttpExchange;
import jakarta.xml.ws.spi.http.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;

/**
 * An endpoint in another HTTP container, through the {@code jakarta.xml.ws.spi.http} SPI: each
 * exchange the container hands over is served by the same {@link SoapServlet} Ferry's own
 * server runs (admission, reading, faults, metrics, the access log), over the exchange seen as
 * a servlet request and response. After {@link #stop()} requests get 404.
 */
final class ExchangeHandler extends HttpHandler {
  private final HttpContext context;
  private final SoapServlet servlet;
  private volatile boolean stopped;

  ExchangeHandler(HttpContext context, SoapCodec codec, Dispatcher dispatcher,
      ServerFeature feature) {
    this.context = context;
    ServerOptions options = feature == null ? ServerOptions.DEFAULTS : feature.options();
    Metrics metrics = feature == null || feature.metrics() == null
        ? Metrics.create("ferry.server") : feature.metrics();
    this.servlet = new SoapServlet(codec, dispatcher, metrics, options);
    try {
      servlet.init(new Config());
    } catch (ServletException e) {
      throw new WebServiceException(e);
    }
  }

  void stop() {
    stopped = true;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      if (stopped) {
        byte[] body = "the endpoint was stopped\n".getBytes(StandardCharsets.UTF_8);
        exchange.addResponseHeader("Content-Type", "text/plain; charset=utf-8");
        exchange.setStatus(404);
        exchange.getResponseBody().write(body);
        return;
      }
      ExchangeResponse response = new ExchangeResponse(exchange);
      servlet.service(new ExchangeRequest(exchange, context), response);
      response.finish();
    } catch (ServletException e) {
      throw new IOException(e);
    } finally {
      exchange.close();
    }
  }

  /** The servlet's configuration: its name, no parameters, no servlet context. */
  private final class Config implements ServletConfig {
    @Override
    public String getServletName() {
      return "ferry:" + context.getPath();
    }

    @Override
    public ServletContext getServletContext() {
      return null;
    }

    @Override
    public String getInitParameter(String name) {
      return null;
    }

    @Override
    public Enumeration<String> getInitParameterNames() {
      return Collections.emptyEnumeration();
    }
  }
}
