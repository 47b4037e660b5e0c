package dev.ferry.bench.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OTLP/HTTP endpoint that takes every export and keeps nothing but a count, so that a traced
 * server in a benchmark exports as it would to a collector (an empty body is a whole
 * ExportTraceServiceResponse) without the receiving side growing with the run.
 */
final class OtlpSink implements AutoCloseable {
  private final HttpServer server;
  private final AtomicLong exports = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  private OtlpSink(HttpServer server) {
    this.server = server;
    server.createContext("/v1/traces", this::export);
  }

  static OtlpSink start() throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        16);
    OtlpSink sink = new OtlpSink(s);
    s.start();
    return sink;
  }

  /** The base address, as {@code OTEL_EXPORTER_OTLP_ENDPOINT} takes it. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Export requests taken so far, and their bytes. */
  long exports() {
    return exports.get();
  }

  long bytes() {
    return bytes.get();
  }

  private void export(HttpExchange exchange) throws IOException {
    try (exchange; InputStream in = exchange.getRequestBody()) {
      bytes.addAndGet(in.transferTo(OutputStream.nullOutputStream()));
      exports.incrementAndGet();
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
