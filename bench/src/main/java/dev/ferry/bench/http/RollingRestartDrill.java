package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.sample.EchoService;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;

/**
 * A rolling restart of the shipped processes under load, as replicas run in production: three
 * {@code ferry broker}s behind nginx ({@link Nginx#balance}, plain nginx, no active checks) in
 * front of two {@code ferry serve}s (the brokers' round-robin group, each member checked on
 * {@code /health/ready}). Eight callers: six send 32 KiB echoes, half with Ferry's client and
 * half with CXF's (chunked), and two upload large MTOM attachments (100 MiB by default), one
 * with each client. Once the load runs, every broker and then every server is sent SIGTERM in
 * turn, waited for, and started again on its port. Every reply is compared byte by byte with
 * what was sent; the drill exits 1 if any call failed.
 *
 * <pre>
 *   ./mvnw -q package -pl bench,cli -am -DskipTests   # needs nginx: apt-get install nginx-light
 *   java -cp bench/target/benchmarks.jar dev.ferry.bench.http.RollingRestartDrill [uploadMiB]
 * </pre>
 */
public final class RollingRestartDrill {
  private static final String DRAIN_DELAY = "2s";
  private static final int SMALL = 32 * 1024;
  private static final Duration READY_WITHIN = Duration.ofSeconds(90);

  private final List<Replica> servers = new ArrayList<>();
  private final List<Replica> brokers = new ArrayList<>();
  private final Queue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicInteger uploadsInFlight = new AtomicInteger();
  private final AtomicLong smallCalls = new AtomicLong();
  private final AtomicLong uploads = new AtomicLong();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final long started = System.nanoTime();
  private final HttpClient probe = HttpClient.newHttpClient();

  private RollingRestartDrill() {}

  public static void main(String[] args) throws Exception {
    int uploadMiB = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    RollingRestartDrill drill = new RollingRestartDrill();
    boolean clean;
    try {
      clean = drill.run(uploadMiB << 20);
    } finally {
      drill.stopAll();
    }
    System.exit(clean ? 0 : 1);
  }

  /** A process on a fixed port, started again on the same port after each restart. */
  private final class Replica {
    final String name;
    final int port;
    final List<String> args;
    final String optionsProperty;
    RelayProcess process;

    Replica(String name, String optionsProperty, List<String> args) {
      this.name = name;
      this.port = Ports.free();
      this.optionsProperty = optionsProperty;
      this.args = args;
    }

    void start() throws IOException, InterruptedException {
      List<String> all = new ArrayList<>(args);
      all.addAll(List.of("--port", Integer.toString(port), "--drain-delay", DRAIN_DELAY));
      process = RelayProcess.ferry(optionsProperty, all.toArray(String[]::new));
      awaitReady();
    }

    private void awaitReady() throws IOException, InterruptedException {
      long deadline = System.nanoTime() + READY_WITHIN.toNanos();
      HttpRequest ready = HttpRequest.newBuilder(process.uri("/health/ready")).build();
      while (System.nanoTime() < deadline) {
        try {
          if (probe.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException notYet) {
          // not listening yet
        }
        Thread.sleep(50);
      }
      throw new IOException(name + " not ready within " + READY_WITHIN + ": " + process.log());
    }

    /** SIGTERM, then waits for the drain to end; returns how long the process took to exit. */
    Duration restart() throws Exception {
      int inFlight = uploadsInFlight.get();
      long t0 = System.nanoTime();
      process.process().destroy();
      process.process().onExit().get(120, TimeUnit.SECONDS);
      Duration drained = Duration.ofNanos(System.nanoTime() - t0);
      process.close();
      start();
      System.out.printf("%6.1f s  %s: SIGTERM with %d upload(s) in flight, exited after %d ms,"
          + " ready again%n", seconds(), name, inFlight, drained.toMillis());
      return drained;
    }
  }

  private boolean run(int uploadBytes) throws Exception {
    Path dir = Files.createTempDirectory("ferry-drill");
    try {
      for (int i = 0; i < 2; i++) {
        Replica s = new Replica("server " + i, "ferry.bench.serverJvmOptions",
            List.of("serve"));
        s.start();
        servers.add(s);
      }
      Path routes = dir.resolve("routes.yaml");
      Files.writeString(routes, routes(servers.get(0).process.address().getPath()));
      for (int i = 0; i < 3; i++) {
        Replica b = new Replica("broker " + i, "ferry.bench.brokerJvmOptions",
            List.of("broker", "--routes", routes.toString()));
        b.start();
        brokers.add(b);
      }
      try (Nginx nginx = Nginx.balance(brokers.stream().map(b -> b.port).toList())) {
        URI echo = URI.create("http://127.0.0.1:" + nginx.port()
            + servers.get(0).process.address().getPath());
        return drive(echo, uploadBytes, nginx);
      }
    } finally {
      Files.deleteIfExists(dir.resolve("routes.yaml"));
      Files.deleteIfExists(dir);
    }
  }

  /** A round-robin group of the two servers, a member out as soon as it is not ready. */
  private String routes(String path) {
    StringBuilder y = new StringBuilder("""
        groups:
          echo:
            balance: round-robin
            suspend: {initial: 1s, factor: 1, max: 1s, failures: 1}
            check: {every: 200ms, path: /health/ready, timeout: 1s}
            members:
        """);
    for (Replica s : servers) {
      y.append("      - ").append(s.process.uri(path)).append('\n');
    }
    return y.append("routes:\n  - path: ").append(path).append("\n    group: echo\n").toString();
  }

  private boolean drive(URI echo, int uploadBytes, Nginx nginx) throws Exception {
    Bus bus = BusFactory.newInstance().createBus();
    List<Thread> callers = new ArrayList<>();
    try (SoapClient ferry = SoapClient.builder().build()) {
      SoapCodec codec = SoapCodec.create();
      for (int i = 0; i < 8; i++) {
        boolean upload = i >= 6;
        boolean cxf = i % 2 == 1;
        ByteString blob = random(upload ? uploadBytes : SMALL, i);
        Call call = cxf ? cxfCall(bus, echo) : ferryCall(ferry, codec, echo);
        String who = (cxf ? "CXF" : "Ferry") + (upload ? " upload " : " caller ") + i;
        callers.add(Thread.ofPlatform().name(who).start(() -> loop(who, call, blob, upload)));
      }
      awaitCalls(20);
      List<Duration> drains = new ArrayList<>();
      for (Replica b : brokers) {
        drains.add(b.restart());
        awaitCalls(20);
      }
      for (Replica s : servers) {
        drains.add(s.restart());
        awaitCalls(20);
      }
      awaitUploadsAfterRestarts();
      stop.set(true);
      for (Thread t : callers) {
        t.join();
      }
      System.out.printf("%6.1f s  done: %d calls of 32 KiB and %d uploads of %d MiB answered, "
          + "%d failed; drains %s%n", seconds(), smallCalls.get(), uploads.get(),
          uploadBytes >> 20, failures.size(), drains.stream().map(Duration::toMillis).toList());
      failures.forEach(f -> System.out.println("FAILED " + f));
      if (!failures.isEmpty()) {
        System.out.println("nginx's error log:\n" + nginx.errorLog());
      }
      return failures.isEmpty();
    } finally {
      stop.set(true);
      bus.shutdown(true);
    }
  }

  /** Waits until {@code n} more 32 KiB calls were answered, so each step runs under load. */
  private void awaitCalls(int n) throws InterruptedException {
    long target = smallCalls.get() + n;
    while (smallCalls.get() < target && failures.isEmpty()) {
      Thread.sleep(20);
    }
  }

  /** Lets each upload caller finish one more upload after the last restart. */
  private void awaitUploadsAfterRestarts() throws InterruptedException {
    long target = uploads.get() + 2;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (uploads.get() < target && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  private interface Call {
    /** Sends {@code blob} to the echo and streams the echoed bytes into {@code sink}. */
    void echo(ByteString blob, OutputStream sink) throws Exception;
  }

  private void loop(String who, Call call, ByteString blob, boolean upload) {
    while (!stop.get()) {
      if (upload) {
        uploadsInFlight.incrementAndGet();
      }
      try {
        SameBytes sink = new SameBytes(blob);
        call.echo(blob, sink);
        sink.finish();
        (upload ? uploads : smallCalls).incrementAndGet();
      } catch (Exception e) {
        failures.add(String.format("%.1f s %s: %s", seconds(), who, chain(e)));
      } finally {
        if (upload) {
          uploadsInFlight.decrementAndGet();
        }
      }
    }
  }

  private static Call ferryCall(SoapClient client, SoapCodec codec, URI echo) {
    return (blob, sink) -> {
      try (SoapResponse r = client.call(echo, EchoService.request(codec, SoapVersion.SOAP_11,
          MtomPolicy.ALWAYS, "drill", blob), EchoService.SOAP_ACTION)) {
        EchoService.readEcho(r.message(), sink);
      }
    };
  }

  private static Call cxfCall(Bus bus, URI echo) {
    TestMtomPort port = CxfPeer.client(bus, echo, true);
    return (blob, sink) -> {
      Holder<String> name = new Holder<>("drill");
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(
          blob.toByteArray())));
      port.testMtom(name, data);
      try (InputStream in = data.value.getInputStream()) {
        in.transferTo(sink);
      }
    };
  }

  /** Takes the echoed bytes and fails at the first one that differs from what was sent. */
  private static final class SameBytes extends OutputStream {
    private final ByteString expected;
    private long at;

    SameBytes(ByteString expected) {
      this.expected = expected;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (at + len > expected.size()) {
        throw new IOException("the echo is longer than the " + expected.size() + " bytes sent");
      }
      for (int i = 0; i < len; i++) {
        if (b[off + i] != expected.byteAt((int) at + i)) {
          throw new IOException("the echo differs at byte " + (at + i));
        }
      }
      at += len;
    }

    void finish() throws IOException {
      if (at != expected.size()) {
        throw new IOException("the echo is short: " + at + " of " + expected.size() + " bytes");
      }
    }
  }

  private static ByteString random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return ByteString.takeOwnership(b);
  }

  private static String chain(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      s.append(s.isEmpty() ? "" : " <- ").append(t);
    }
    return s.toString();
  }

  private double seconds() {
    return (System.nanoTime() - started) / 1e9;
  }

  private void stopAll() {
    stop.set(true);
    for (Replica r : brokers) {
      closeQuietly(r);
    }
    for (Replica r : servers) {
      closeQuietly(r);
    }
  }

  private static void closeQuietly(Replica r) {
    try {
      if (r.process != null) {
        r.process.close();
      }
    } catch (IOException | InterruptedException e) {
      System.err.println("stopping " + r.name + ": " + e);
    }
  }
}
