package dev.ferry.bench.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ferry broker} as people run it: the shipped command-line jar
 * ({@code cli/target/ferry-cli.jar}, built by {@code ./mvnw package}), in a JVM of its own with
 * the Vector API module as {@code ./ferry broker} adds it, the JVM's default heap, and its
 * default logging: the access log on, one line per exchange on standard error, here to a file.
 * The property {@code ferry.bench.cliJar} points at another jar; {@code
 * ferry.bench.brokerJvmOptions} (options separated by spaces) adds JVM options.
 */
final class RelayProcess implements AutoCloseable {
  private static final Pattern LISTENING =
      Pattern.compile("(?:broker|relay|echo|echo service) at (http://[^:]+:(\\d+)/\\S*)");

  private final Process process;
  private final Path dir;
  private final int port;
  private final URI address; // as the process printed it

  private RelayProcess(Process process, Path dir, int port, URI address) {
    this.process = process;
    this.dir = dir;
    this.port = port;
    this.address = address;
  }

  /** Starts {@code ferry broker} routing {@code /echo} to {@code backend}. */
  static RelayProcess broker(URI backend) throws IOException {
    return broker(backend, new OpsSettings(Map.of(), List.of()));
  }

  /**
   * Starts {@code ferry broker} routing {@code /echo} to {@code backend}, with the environment
   * and options of {@code settings} added.
   */
  static RelayProcess broker(URI backend, OpsSettings settings) throws IOException {
    Path dir = Files.createTempDirectory("ferry-broker");
    Path routes = dir.resolve("routes.yaml");
    Files.writeString(routes, "routes:\n  - path: /echo\n    to: " + backend + "\n");
    List<String> command = cli("ferry.bench.brokerJvmOptions", "broker", "--routes",
        routes.toString(), "--port", "0");
    command.addAll(settings.options());
    return start(command, dir, settings.environment());
  }

  /**
   * Starts {@code ferry serve}: the testMtom echo as the shipped command serves it, its access
   * log on (its default). {@code ferry.bench.serverJvmOptions} adds JVM options.
   */
  static RelayProcess serve() throws IOException {
    return serve(Map.of());
  }

  /**
   * Starts {@code ferry serve} as {@link #serve()} does, with {@code environment} added to its
   * environment and {@code options} to its command line.
   */
  static RelayProcess serve(Map<String, String> environment, String... options)
      throws IOException {
    List<String> command = cli("ferry.bench.serverJvmOptions", "serve", "--port", "0");
    command.addAll(List.of(options));
    return start(command, Files.createTempDirectory("ferry-serve"), environment);
  }

  /**
   * Starts {@link EchoServerMain} for {@code stack} in a JVM of its own on this JVM's class
   * path; {@code ferry.bench.serverJvmOptions} adds JVM options.
   */
  static RelayProcess echoServer(String stack) throws IOException {
    List<String> command = new ArrayList<>(List.of(java()));
    command.addAll(options("ferry.bench.serverJvmOptions"));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        EchoServerMain.class.getName(), stack));
    return start(command, Files.createTempDirectory("echo-server"));
  }

  /**
   * Starts the shipped {@code ferry} command with {@code args} (a subcommand and its options),
   * with the JVM options of {@code optionsProperty}.
   */
  static RelayProcess ferry(String optionsProperty, String... args) throws IOException {
    return start(cli(optionsProperty, args), Files.createTempDirectory("ferry-" + args[0]));
  }

  /** The shipped command-line jar run with {@code args}, as {@code ./ferry} runs it. */
  private static List<String> cli(String optionsProperty, String... args) throws IOException {
    Path jar = Path.of(System.getProperty("ferry.bench.cliJar", "cli/target/ferry-cli.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IOException(jar.toAbsolutePath() + " is missing: ./mvnw package -DskipTests");
    }
    List<String> command = new ArrayList<>(List.of(java(), "--add-modules",
        "jdk.incubator.vector"));
    command.addAll(options(optionsProperty));
    command.addAll(List.of("-jar", jar.toString()));
    command.addAll(List.of(args));
    return command;
  }

  private static List<String> options(String property) {
    String options = System.getProperty(property, "").strip();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  /**
   * Starts {@link NettyRelay}, the bare relay on the broker's transport, relaying to
   * {@code backend}, in a JVM of its own on this JVM's class path.
   */
  static RelayProcess nettyRelay(URI backend) throws IOException {
    Path dir = Files.createTempDirectory("netty-relay");
    return start(List.of(java(), "-cp", System.getProperty("java.class.path"),
        NettyRelay.class.getName(), backend.toString()), dir);
  }

  private static String java() throws IOException {
    return ProcessHandle.current().info().command()
        .orElseThrow(() -> new IOException("cannot tell which java runs this JVM"));
  }

  /** Runs {@code command} until it says where it listens; its standard error goes to dir. */
  private static RelayProcess start(List<String> command, Path dir) throws IOException {
    return start(command, dir, Map.of());
  }

  private static RelayProcess start(List<String> command, Path dir,
      Map<String, String> environment) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectError(dir.resolve("stderr.log").toFile());
    builder.environment().putAll(environment);
    Process p = builder.start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    for (String line; (line = out.readLine()) != null; ) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread.ofVirtual().start(() -> drain(out));
        return new RelayProcess(p, dir, Integer.parseInt(m.group(2)), URI.create(m.group(1)));
      }
    }
    p.destroyForcibly();
    throw new IOException(command.get(command.size() - 1) + " did not start: " + Files.readString(
        dir.resolve("stderr.log")));
  }

  private static void drain(BufferedReader out) {
    try {
      while (out.readLine() != null) {
        // its standard output, read so that it never blocks on a full pipe
      }
    } catch (IOException ignored) {
      // the process ended
    }
  }

  /** What the process wrote to standard error so far. */
  String log() throws IOException {
    return Files.readString(dir.resolve("stderr.log"));
  }

  ProcessHandle process() {
    return process.toHandle();
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** The address the process printed. */
  URI address() {
    return address;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    process.getOutputStream().close(); // an echo server ends with its standard input
    Files.deleteIfExists(dir.resolve("routes.yaml"));
    Files.deleteIfExists(dir.resolve("stderr.log"));
    Files.deleteIfExists(dir);
  }
}
