package dev.ferry.spring.boot.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts the bench application on each starter as a JVM of its own, alternating, and measures
 * for each start: milliseconds from launching the JVM to the first answered sayHello; heap used
 * after a full GC ({@code jcmd GC.run}, then {@code GC.heap_info}); classes loaded; resident
 * memory. Then, unless the size is 0, one JVM of each runs the testMtom round trip.
 *
 * <p>Arguments: the file of Ferry's class path, the file of CXF's class path, the number of
 * starts of each, the testMtom blob size in bytes, a directory for the applications' logs, and
 * optionally {@code floor}: the same applications without endpoints (the floor under each
 * starter: Spring Boot, its web server and Actuator), whose first answer is Actuator's health.
 */
public final class StartupBench {
  private static final String FERRY = "dev.ferry.spring.boot.bench.ferry.FerryTenEndpoints";
  private static final String CXF = "dev.ferry.spring.boot.bench.cxf.CxfTenEndpoints";
  private static final List<String> JVM = List.of("-Xmx512m", "-XX:+UseG1GC");
  private static final String HELLO = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><g:sayHello xmlns:g=\"urn:ferry:bench:greeter\"><name>bench</name>"
      + "</g:sayHello></s:Body></s:Envelope>";
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
  private static final Pattern CLASSES = Pattern.compile("java\\.cls\\.loadedClasses=(\\d+)");
  private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

  private final Path logs;
  private final String java = ProcessHandle.current().info().command().orElseThrow();
  private final String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();

  private final boolean floor;

  private StartupBench(Path logs, boolean floor) {
    this.logs = logs;
    this.floor = floor;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> stacks = new LinkedHashMap<>();
    stacks.put("ferry", FERRY + " " + Files.readString(Path.of(args[0])).strip());
    stacks.put("cxf", CXF + " " + Files.readString(Path.of(args[1])).strip());
    int runs = Integer.parseInt(args[2]);
    int mtomBytes = Integer.parseInt(args[3]);
    boolean floor = args.length > 5 && args[5].equals("floor");
    StartupBench bench = new StartupBench(Files.createDirectories(Path.of(args[4])), floor);
    bench.warmDriver();
    Map<String, List<long[]>> results = new LinkedHashMap<>();
    stacks.keySet().forEach(k -> results.put(k, new ArrayList<>()));
    List<String> order = new ArrayList<>(stacks.keySet());
    for (int run = 0; run < runs; run++) {
      for (String stack : run % 2 == 0 ? order : order.reversed()) {
        long[] m = bench.start(stack, stacks.get(stack), run);
        results.get(stack).add(m);
        System.out.printf("run %d %-5s first-answer=%d ms heap-after-gc=%d KiB classes=%d"
            + " rss=%d KiB%n", run, stack, m[0], m[1], m[2], m[3]);
      }
    }
    String[] names = {"first-answer ms", "heap after full GC KiB", "classes loaded", "RSS KiB"};
    for (int i = 0; i < names.length; i++) {
      for (String stack : stacks.keySet()) {
        int index = i;
        long[] v = results.get(stack).stream().mapToLong(m -> m[index]).sorted().toArray();
        System.out.printf("%-24s %-5s median %d min %d max %d%n", names[i], stack,
            v[v.length / 2], v[0], v[v.length - 1]);
      }
    }
    if (mtomBytes > 0 && !floor) {
      for (String stack : stacks.keySet()) {
        System.out.println(stack + " " + bench.mtom(stack, stacks.get(stack), mtomBytes));
      }
    }
  }

  /** Loads the driver's own HTTP classes before anything is timed. */
  private void warmDriver() throws IOException {
    try (ServerSocket closed = new ServerSocket(0)) {
      int port = closed.getLocalPort();
      closed.close();
      answer(port);
    }
  }

  private long[] start(String stack, String mainAndClassPath, int run) throws Exception {
    int port = freePort();
    Path log = logs.resolve(stack + "-" + run + ".log");
    long t0 = System.nanoTime();
    Process app = launch(mainAndClassPath, log, "--server.port=" + port,
        "--bench.endpoints=" + (floor ? 0 : 10));
    try {
      long deadline = t0 + TimeUnit.SECONDS.toNanos(120);
      while (!(floor ? health(port) : answer(port))) {
        if (!app.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException(stack + " gave no answer; see " + log);
        }
        Thread.sleep(5);
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      jcmd(app, "GC.run");
      long heap = find(HEAP_USED, jcmd(app, "GC.heap_info"));
      long classes = find(CLASSES, jcmd(app, "PerfCounter.print"));
      long rss = find(RSS, Files.readString(Path.of("/proc", Long.toString(app.pid()),
          "status")));
      return new long[] {millis, heap, classes, rss};
    } finally {
      stop(app);
    }
  }

  private String mtom(String stack, String mainAndClassPath, int bytes) throws Exception {
    Path log = logs.resolve(stack + "-mtom.log");
    Process app = launch(mainAndClassPath, log, "--server.port=" + freePort(),
        "--bench.mtom-bytes=" + bytes);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline && app.isAlive()) {
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
          if (line.startsWith("mtom-round-trip")) {
            return line;
          }
        }
        Thread.sleep(200);
      }
      throw new IllegalStateException(stack + " printed no round trip; see " + log);
    } finally {
      stop(app);
    }
  }

  private Process launch(String mainAndClassPath, Path log, String... args) throws IOException {
    int space = mainAndClassPath.indexOf(' ');
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(JVM);
    command.addAll(List.of("-cp", mainAndClassPath.substring(space + 1),
        mainAndClassPath.substring(0, space)));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
  }

  private static void stop(Process app) throws InterruptedException {
    app.destroy();
    if (!app.waitFor(30, TimeUnit.SECONDS)) {
      app.destroyForcibly().waitFor();
    }
  }

  /** Whether Actuator's health on the port answered. */
  private static boolean health(int port) throws IOException {
    HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port
        + "/actuator/health").toURL().openConnection();
    try {
      return http.getResponseCode() == 200;
    } catch (ConnectException notYet) {
      return false;
    }
  }

  /** Whether the Greeter endpoint on the port answered sayHello. */
  private static boolean answer(int port) throws IOException {
    HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port
        + "/Service/Greeter").toURL().openConnection();
    http.setDoOutput(true);
    http.setConnectTimeout(2000);
    http.setReadTimeout(10_000);
    http.setRequestProperty("Content-Type", "text/xml; charset=utf-8");
    http.setRequestProperty("SOAPAction", "\"\"");
    try (OutputStream out = http.getOutputStream()) {
      out.write(HELLO.getBytes(StandardCharsets.UTF_8));
    } catch (ConnectException notYet) {
      return false;
    }
    if (http.getResponseCode() != 200) {
      return false;
    }
    try (InputStream in = http.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).contains("Hello, bench!");
    }
  }

  private String jcmd(Process app, String command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(jcmd, Long.toString(app.pid()), command)
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }

  private static long find(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    if (!m.find()) {
      throw new IllegalStateException("no " + pattern + " in: " + text);
    }
    return Long.parseLong(m.group(1));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
