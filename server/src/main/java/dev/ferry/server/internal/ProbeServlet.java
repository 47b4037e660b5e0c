package dev.ferry.server.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One probe: 200 and UP while it holds, 503 and DOWN with the reason if not. Never cached: a
 * probe is only worth its answer now.
 */
final class ProbeServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final transient Supplier<String> whyNot;

  /** A probe that fails while {@code whyNot} gives a reason (null: it holds). */
  ProbeServlet(Supplier<String> whyNot) {
    this.whyNot = whyNot;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String why = whyNot.get();
    byte[] body = (why == null ? Probes.UP : Probes.down(why)).getBytes(StandardCharsets.UTF_8);
    response.setStatus(why == null ? 200 : HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
