package dev.ferry.bench.http;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.proxy.ProxyHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A relay in a JVM of its own, so that it is measured the way nginx is: a separate process that
 * shares neither heap, garbage collector nor threads with the client and backend of the
 * benchmark. Either Ferry's broker, as {@code ferry broker} runs it (the Vector API module added,
 * the JVM's default heap, the access log off as nginx's is), or Jetty's own reverse proxy
 * ({@code ProxyHandler.Reverse}, Jetty's defaults), the library the broker is built on, relaying
 * the bytes without reading them. The child is this class's {@link #main} on the benchmark's own
 * class path; it prints its port and lives until its standard input closes.
 */
final class RelayProcess implements AutoCloseable {
  private final Process process;
  private final int port;

  private RelayProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts Ferry's broker routing {@code /echo} to {@code backend}. */
  static RelayProcess broker(URI backend) throws IOException {
    return start("broker", backend);
  }

  /** Starts Jetty's reverse proxy in front of {@code backend}, with Jetty's defaults. */
  static RelayProcess jettyProxy(URI backend) throws IOException {
    return start("jetty-proxy", backend);
  }

  /**
   * Starts the child JVM running {@code kind}; the system property {@code
   * ferry.bench.brokerJvmOptions} (options separated by spaces) adds options to it, whichever
   * relay it runs.
   */
  private static RelayProcess start(String kind, URI backend) throws IOException {
    String java = ProcessHandle.current().info().command()
        .orElseThrow(() -> new IOException("cannot tell which java runs this JVM"));
    List<String> command = new ArrayList<>(List.of(java, "--add-modules",
        "jdk.incubator.vector"));
    String options = System.getProperty("ferry.bench.brokerJvmOptions", "").strip();
    if (!options.isEmpty()) {
      command.addAll(List.of(options.split("\\s+")));
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        RelayProcess.class.getName(), kind, backend.toString()));
    Process p = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
    String line = out.readLine();
    if (line == null || !line.startsWith("port ")) {
      p.destroyForcibly();
      throw new IOException("the " + kind + " process did not start: " + line);
    }
    return new RelayProcess(p, Integer.parseInt(line.substring(5)));
  }

  ProcessHandle process() {
    return process.toHandle();
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    process.getOutputStream().close();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  /** The child: {@code RelayProcess broker|jetty-proxy <backend URI>}. */
  public static void main(String[] args) throws Exception {
    AccessLog.quiet();
    URI backend = URI.create(args[1]);
    if (args[0].equals("jetty-proxy")) {
      runJettyProxy(backend);
    } else {
      runBroker(backend);
    }
  }

  private static void runBroker(URI backend) throws IOException {
    try (Broker broker = Broker.builder().host("127.0.0.1")
        .routes(Routes.parse("routes:\n  - path: /echo\n    to: " + backend + "\n"))
        .build().start()) {
      serve(broker.port());
    }
  }

  private static void runJettyProxy(URI backend) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(new ProxyHandler.Reverse(
        request -> HttpURI.build(request.getHttpURI()).scheme("http")
            .host(backend.getHost()).port(backend.getPort())));
    server.start();
    try {
      serve(connector.getLocalPort());
    } finally {
      server.stop();
    }
  }

  private static void serve(int port) throws IOException {
    System.out.println("port " + port);
    System.out.flush();
    while (System.in.read() >= 0) {
      // lives until the parent closes its end
    }
  }
}
