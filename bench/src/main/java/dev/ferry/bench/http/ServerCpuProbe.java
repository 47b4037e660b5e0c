package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.soap.SoapCodec;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cxf.Bus;

/**
 * A server's CPU per call, as its operating system counts it (every thread of its JVM: request
 * handling, I/O, GC, JIT), with the clients users have: for each server of {@code ferry-serve}
 * (the shipped {@code ferry serve}, access log on), {@code ferry-jaxws} (the interop tests' SEI
 * implementation on Ferry's JAX-WS runtime) and {@code cxf} (the same on CXF 4's), each in a JVM
 * of its own, and each client of {@code ferry} (Ferry's {@code SoapClient}: a Content-Length
 * when the request fits its buffer) and {@code cxf} (CXF's generated port: chunked past 4,000
 * bytes, its default), {@code clients} threads call the MTOM testMtom echo of {@code size} bytes.
 * After a warm-up of {@code seconds} per pair, the pairs take turns in five rounds of a fifth of
 * {@code seconds}; printed are calls/s and the server's CPU per call (medians, and each round's).
 * Every echo is checked whole. Not a JMH benchmark:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.ferry.bench.http.ServerCpuProbe 32768 1 20
 * </pre>
 *
 * <p>(size in bytes, client threads, seconds; a fourth argument names the servers, a fifth the
 * clients, such as {@code ferry-jaxws,cxf ferry}).
 */
public final class ServerCpuProbe {
  private static final int ROUNDS = 5;
  static final List<String> SERVERS = List.of("ferry-serve", "ferry-jaxws", "cxf");
  static final List<String> CLIENTS = List.of("ferry", "cxf");

  private ServerCpuProbe() {}

  /** One client of the echo, usable from several threads. */
  private interface Caller {
    void call(ByteString blob) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    int threads = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    List<String> servers = args.length > 3 ? List.of(args[3].split(",")) : SERVERS;
    List<String> clients = args.length > 4 ? List.of(args[4].split(",")) : CLIENTS;
    ByteString blob = BrokerOverheadBenchmark.blob(size);
    SoapCodec codec = SoapCodec.create();
    Bus bus = CxfPeer.newBus();
    Map<String, RelayProcess> running = new LinkedHashMap<>();
    Map<String, List<double[]>> rounds = new LinkedHashMap<>();
    try (SoapClient ferry = SoapClient.builder().ioThreads(Math.min(threads, 2)).build()) {
      Map<String, Caller> callers = new LinkedHashMap<>();
      for (String server : servers) {
        RelayProcess p = server.equals("ferry-serve") ? RelayProcess.serve()
            : RelayProcess.echoServer(server);
        running.put(server, p);
        for (String client : clients) {
          String pair = client + " -> " + server;
          callers.put(pair, caller(client, p.address(), ferry, codec, bus));
          run(callers.get(pair), blob, threads, seconds); // warm-up
          rounds.put(pair, new ArrayList<>());
        }
      }
      for (int round = 0; round < ROUNDS; round++) {
        for (Map.Entry<String, Caller> e : callers.entrySet()) {
          RelayProcess server = running.get(e.getKey().substring(e.getKey().indexOf("> ") + 2));
          Duration before = cpu(server);
          long calls = run(e.getValue(), blob, threads, seconds / ROUNDS);
          double cpuUs = cpu(server).minus(before).toNanos() / 1e3 / calls;
          rounds.get(e.getKey()).add(new double[] {calls / (double) (seconds / ROUNDS), cpuUs});
        }
      }
    } finally {
      for (RelayProcess p : running.values()) {
        p.close();
      }
      bus.shutdown(true);
    }
    for (Map.Entry<String, List<double[]>> e : rounds.entrySet()) {
      System.out.printf("%-22s %8d B %2d threads: %7.0f calls/s, server CPU %7.1f us a call"
          + " (rounds: %s)%n", e.getKey(), size, threads, median(e.getValue(), 0),
          median(e.getValue(), 1), e.getValue().stream()
              .map(r -> String.format("%.1f", r[1])).toList());
    }
  }

  private static Caller caller(String client, URI uri, SoapClient ferry, SoapCodec codec,
      Bus bus) {
    if (client.equals("ferry")) {
      return blob -> BrokerOverheadBenchmark.call(ferry, codec, uri, blob);
    }
    // a port of its own per thread, as an application with a thread pool would keep them
    ThreadLocal<TestMtomPort> ports = ThreadLocal.withInitial(() -> CxfPeer.client(bus, uri,
        true));
    return blob -> {
      Holder<String> name = new Holder<>("bench");
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(
          blob.toByteArray())));
      ports.get().testMtom(name, data);
      long n;
      try (InputStream in = data.value.getInputStream()) {
        n = in.transferTo(OutputStream.nullOutputStream());
      }
      if (n != blob.size()) {
        throw new IllegalStateException("the echo from " + uri + " is not whole: " + n);
      }
    };
  }

  /** {@code threads} threads calling for {@code seconds}; returns the calls made. */
  private static long run(Caller caller, ByteString blob, int threads, int seconds)
      throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong calls = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int i = 0; i < threads; i++) {
      workers.add(Thread.ofPlatform().start(() -> {
        try {
          while (!stop.get()) {
            caller.call(blob);
            calls.incrementAndGet();
          }
        } catch (Exception e) {
          failures.add(e);
        }
      }));
    }
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread t : workers) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("calls failed", failures.get(0));
    }
    return calls.get();
  }

  private static double median(List<double[]> rounds, int column) {
    double[] v = rounds.stream().mapToDouble(r -> r[column]).sorted().toArray();
    return v[v.length / 2];
  }

  private static Duration cpu(RelayProcess p) {
    return p.process().info().totalCpuDuration().orElse(Duration.ZERO);
  }
}
