package dev.ferry.cli;

import dev.ferry.broker.Broker;
import dev.ferry.broker.BrokerOptions;
import dev.ferry.broker.Route;
import dev.ferry.broker.Routes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code ferry broker}: the copy-and-forward SOAP broker, until interrupted. SIGHUP reloads the
 * routes file ({@code sun.misc.Signal}, the JDK's only way to take a signal): the operator, or
 * the tool that wrote the file, says when the file is whole, which a watch on the file could
 * not tell from an editor's or a copy's half-written state.
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
    description = {"Run the SOAP broker: each request is forwarded to the backend its route"
        + " names (wsa:To rewritten, a ferry:Trace header added), attachments streamed through"
        + " in both directions, until interrupted with Ctrl-C.",
        "", "Also served: /health, the probes /health/live, /health/ready and /health/started,"
        + " and Prometheus metrics at /metrics. SIGTERM (or Ctrl-C) drains: /health/ready fails"
        + " at once, new connections are served for --drain-delay, then refused; exchanges in"
        + " flight get --drain-timeout. SIGHUP reloads the routes file: calls in flight finish on"
        + " the routes they started with; a file that is not a valid table is refused, logged"
        + " with its line, and the routes in use stay. Traces: with OTEL_EXPORTER_OTLP_ENDPOINT"
        + " (or the other standard OTEL_* settings), a server span per call under the caller's"
        + " traceparent and a client span per backend tried are exported over OTLP."
        + " --log-messages logs each request as the caller sent it and the reply sent back,"
        + " masked and capped.",
        "", "The routes file (YAML):",
        "  timeout: 30s                      # no progress for this long: a fault (default 60s)",
        "  routes:",
        "    - path: /echo                   # the path callers post to",
        "      action: urn:testMtom          # optional: only this wsa:Action or SOAPAction",
        "      to: http://127.0.0.1:8081/echo",
        "      audit: /var/log/ferry-audit   # optional: a copy of each request (dir or URL)",
        "      when:                         # optional: conditions, all must hold",
        "        header: {name: X-Tenant, equals: acme}",
        "        body: \"//q:order[1]/q:symbol = 'IBM'\"",
        "      namespaces: {q: \"urn:quotes\"}",
        "    - path: /echo",
        "      fault: {code: Sender, reason: no route}   # answers what the others did not take",
        "  groups:                           # members of one service; a route names one",
        "    echo: {balance: round-robin, members: [http://a:8081/echo, http://b:8081/echo]}",
        "  Every key: docs/broker.md."},
    footer = {"", "Examples:",
        "  ferry serve --port 8081 &",
        "  ferry broker --routes routes.yaml --port 8080",
        "  ferry send --url http://127.0.0.1:8080/echo --size 1M"})
final class BrokerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"-r", "--routes"}, required = true, paramLabel = "FILE",
      description = "The routing table (YAML, see above).")
  Path routesFile;

  @Mixin ListenOptions listen;

  @Mixin LimitOptions limits;

  @Mixin DrainOptions drain;

  @Mixin TlsListenOptions security;

  @Mixin MessageLogOptions messages;

  @Override
  public Integer call() throws IOException {
    listen.check(spec);
    Routes routes = Routes.load(routesFile);
    ServerLogging.configure(true, ServerLogging.verbose(spec));
    try (Telemetry telemetry = Telemetry.start("ferry-broker");
        Broker broker = Broker.builder().host(listen.host).port(listen.port).codec(limits.codec())
        .routes(routes).tls(security.settings(spec)).authenticator(security.authenticator(spec))
        .openTelemetry(telemetry.openTelemetry()).messageLog(messages.messageLog(spec))
        .options(BrokerOptions.builder().drainDelay(drain.delay).drainTimeout(drain.timeout)
            .build())
        .build()
        .start();
        Hangup hangup = reloadOnHangup(broker)) { // before the output says it reloads
      PrintWriter out = spec.commandLine().getOut();
      out.println("broker at " + broker.uri("/") + ", timeout " + routes.timeout().toSeconds()
          + " s, metrics at " + broker.uri("/metrics"));
      for (Route r : routes.routes()) {
        out.println("  " + broker.uri(r.path()) + " [" + r.name() + "]"
            + (r.conditions().isEmpty() || r.action() != null && r.conditions().size() == 1
                ? "" : " when " + r.conditions().size() + " conditions hold")
            + (r.backends() == null ? " -> fault: " + r.fault().reason()
                : r.backends().members().size() == 1 ? " -> " + r.to()
                : " -> group " + r.backends().name() + " (" + r.backends().members().size()
                    + " members, " + r.backends().balance().name().toLowerCase(
                        java.util.Locale.ROOT) + ")")
            + (r.audit() == null ? "" : " (audit copy: " + r.audit() + ")"));
      }
      if (telemetry.exporting()) {
        out.println("spans exported over OTLP (OTEL_* settings)");
      }
      out.println("Ctrl-C stops it; kill -HUP " + ProcessHandle.current().pid()
          + " reloads " + routesFile + ".");
      out.flush();
      ServeCommand.RunUntilStopped.run(telemetry.closing(broker));
    }
    ServerLogging.flush();
    spec.commandLine().getOut().println("stopped");
    return 0;
  }

  /** Puts back the handler SIGHUP had before the broker's, as it closes. */
  private interface Hangup extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Reloads the routes file on SIGHUP (the broker logs and counts the outcome). Where there is
   * no SIGHUP (Windows), nothing.
   */
  private Hangup reloadOnHangup(Broker broker) {
    try {
      Signal hangup = new Signal("HUP");
      SignalHandler before = Signal.handle(hangup, s -> broker.reload(routesFile));
      return () -> Signal.handle(hangup, before);
    } catch (IllegalArgumentException noSuchSignal) {
      return () -> { };
    }
  }
}
