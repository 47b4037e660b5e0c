package dev.ferry.cli;

import dev.ferry.sample.EchoService;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry serve}: the testMtom echo service, until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve the testMtom echo service (CXF's MTOM sample contract: a name and a"
        + " base64Binary blob, echoed back; MTOM or inline base64, SOAP 1.1 or 1.2) until"
        + " interrupted with Ctrl-C.",
        "", "With --config, the endpoints a YAML file lists instead: the echo service, or mock"
        + " services answering every request with a fixed envelope, each with an optional WSDL.",
        "", "Also served: the WSDL at URL?wsdl, /health, the probes /health/live,"
        + " /health/ready and /health/started, and Prometheus metrics at /metrics.",
        "", "SIGTERM (or Ctrl-C) drains: /health/ready fails at once, new connections are"
        + " served for --drain-delay, then refused; calls in flight get --drain-timeout.",
        "", "Traces: with OTEL_EXPORTER_OTLP_ENDPOINT (or the other standard OTEL_* settings of"
        + " the OpenTelemetry SDK), a span per request is exported over OTLP; the caller's"
        + " traceparent is the parent.",
        "", "--log-messages logs each request and reply for support, masked and capped."},
    footer = {"", "Examples:",
        "  ferry serve                                    # http://127.0.0.1:8080/echo",
        "  ferry serve --port 0                           # any free port; the URL is printed",
        "  ferry serve --host 0.0.0.0 --port 9000 --path /services/echo",
        "  ferry serve --config endpoints.yaml             # see below",
        "  ferry serve --tls-cert server.pem --tls-key server.key --users users.txt",
        "  ferry serve --tls-cert server.pem --tls-key server.key --client-ca ca.pem --cert-auth",
        "", "endpoints.yaml (files relative to it):",
        "  endpoints:",
        "    - path: /echo",
        "      service: echo",
        "    - path: /quotes",
        "      reply: quote-reply.xml     # answers every request",
        "      wsdl: quotes.wsdl          # optional, at /quotes?wsdl",
        "  ferry send --url http://127.0.0.1:8080/echo --size 4M   # from another shell"})
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ListenOptions listen;

  @Option(names = "--path", defaultValue = "/echo", paramLabel = "PATH",
      description = "The service's path. Default: ${DEFAULT-VALUE}.")
  String path;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Serve the endpoints this YAML file lists (--path is then not used).")
  Path config;

  @Mixin LimitOptions limits;

  @Mixin DrainOptions drain;

  @Mixin TlsListenOptions security;

  @Mixin MessageLogOptions messages;

  @Override
  public Integer call() throws IOException {
    checkOptions();
    ServerLogging.configure(true, ServerLogging.verbose(spec));
    try (Telemetry telemetry = Telemetry.start("ferry-serve")) {
      return serve(telemetry);
    }
  }

  private int serve(Telemetry telemetry) throws IOException {
    SoapServer.Builder builder = SoapServer.builder().host(listen.host).port(listen.port)
        .codec(limits.codec()).tls(security.settings(spec))
        .options(ServerOptions.builder().authenticator(security.authenticator(spec))
            .openTelemetry(telemetry.openTelemetry()).drainDelay(drain.delay)
            .drainTimeout(drain.timeout).messageLog(messages.messageLog(spec)).build());
    List<String> paths = List.of(path);
    if (config != null) {
      try {
        paths = ServerConfig.apply(config, limits.codec(), builder);
      } catch (IllegalArgumentException | NoSuchFileException e) {
        throw new ParameterException(spec.commandLine(), "--config: " + e.getMessage());
      }
    } else {
      builder.endpoint(path, EchoService.dispatcher());
    }
    try (SoapServer server = builder.build().start()) {
      PrintWriter out = spec.commandLine().getOut();
      for (String p : paths) {
        out.println((config == null ? "echo service at " : "endpoint at ") + server.uri(p));
      }
      out.println("WSDL at URL?wsdl, metrics at " + server.uri("/metrics"));
      if (telemetry.exporting()) {
        out.println("spans exported over OTLP (OTEL_* settings)");
      }
      out.println("Ctrl-C stops it.");
      out.flush();
      RunUntilStopped.run(telemetry.closing(server));
    }
    ServerLogging.flush();
    spec.commandLine().getOut().println("stopped");
    return 0;
  }

  private void checkOptions() {
    listen.check(spec);
    if (!path.startsWith("/")) {
      throw new ParameterException(spec.commandLine(),
          "--path must start with /: " + path);
    }
  }

  /**
   * Blocks until the JVM shuts down (Ctrl-C, SIGTERM) or the calling thread is interrupted (an
   * embedding program or a test). On shutdown the hook closes the server, so requests in flight
   * finish before the JVM exits.
   */
  static final class RunUntilStopped {
    private RunUntilStopped() {}

    static void run(AutoCloseable server) {
      CountDownLatch never = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        closeQuietly(server);
        ServerLogging.flush(); // the records of the exchanges the close let finish
      }, "ferry-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        never.await();
      } catch (InterruptedException e) {
        // The interrupt asked for exactly this, a stop; it is consumed so that closing the
        // server afterwards can wait for requests in flight.
      } finally {
        removeHook(hook);
      }
    }

    private static void removeHook(Thread hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running or about to: it closes the server.
      }
    }

    private static void closeQuietly(AutoCloseable server) {
      try {
        server.close();
      } catch (Exception e) {
        // Nothing to tell anyone: the JVM is exiting.
      }
    }
  }
}
