package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.soap.SoapCodec;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What latency alone cannot tell: how much CPU each relay spends per call, and how many calls
 * it carries with several clients at once. For each path of {@link Relays} (CXF's echo behind
 * {@code ferry broker} and behind nginx), {@code clients} threads call the MTOM echo of
 * {@code size} bytes for {@code seconds} after as long of warm-up; prints calls per second and
 * the relay's CPU time per call (user + system, all its threads or worker processes, as the
 * operating system counts them). After a warm-up of {@code seconds} per path, the paths take
 * turns in five rounds of a fifth of {@code seconds} each; printed are the medians and each
 * round's CPU per call. Not a JMH benchmark:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.ferry.bench.http.ProxyCpuProbe 32768 8 20
 * </pre>
 *
 * <p>(size in bytes, clients, seconds; a fourth argument names the paths to run, such as
 * {@code ferry-broker,nginx}).
 */
public final class ProxyCpuProbe {
  /** Rounds of calls per path, each {@code seconds / ROUNDS} long. */
  private static final int ROUNDS = 5;

  private ProxyCpuProbe() {}

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    int clients = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    SoapCodec codec = SoapCodec.create();
    ByteString blob = BrokerOverheadBenchmark.blob(size);
    List<String> paths = args.length > 3 ? List.of(args[3].split(",")) : List.of(Relays.PATHS);
    Map<String, List<double[]>> rounds = new LinkedHashMap<>(); // per path: {calls/s, CPU us}
    try (Relays relays = Relays.start(null);
        SoapClient client = SoapClient.builder().ioThreads(Math.min(clients, 2)).build()) {
      for (String path : paths) {
        run(client, codec, relays.uri(path), blob, clients, seconds); // warm-up
        rounds.put(path, new ArrayList<>());
      }
      // the paths take turns, so that a slower stretch of the machine falls on each of them
      for (int round = 0; round < ROUNDS; round++) {
        for (String path : paths) {
          Duration before = cpu(relays.process(path));
          long calls = run(client, codec, relays.uri(path), blob, clients, seconds / ROUNDS);
          double cpuUs = cpu(relays.process(path)).minus(before).toNanos() / 1e3 / calls;
          rounds.get(path).add(new double[] {calls / (double) (seconds / ROUNDS), cpuUs});
        }
      }
    }
    for (Map.Entry<String, List<double[]>> e : rounds.entrySet()) {
      System.out.printf("%-13s %8d B  %2d clients: %8.0f calls/s, relay CPU %6.1f us a call"
          + " (rounds: %s)%n", e.getKey(), size, clients, median(e.getValue(), 0),
          median(e.getValue(), 1), e.getValue().stream()
              .map(r -> String.format("%.1f", r[1])).toList());
    }
  }

  private static double median(List<double[]> rounds, int column) {
    double[] v = rounds.stream().mapToDouble(r -> r[column]).sorted().toArray();
    return v[v.length / 2];
  }

  /** {@code clients} threads calling for {@code seconds}; returns the calls made. */
  private static long run(SoapClient client, SoapCodec codec, URI uri, ByteString blob,
      int clients, int seconds) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong calls = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int i = 0; i < clients; i++) {
      threads.add(Thread.ofPlatform().start(() -> {
        try {
          while (!stop.get()) {
            BrokerOverheadBenchmark.call(client, codec, uri, blob);
            calls.incrementAndGet();
          }
        } catch (IOException | RuntimeException e) {
          failures.add(e);
        }
      }));
    }
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("calls through " + uri + " failed", failures.get(0));
    }
    return calls.get();
  }

  /** CPU time of {@code p} and its descendants (nginx's workers), or zero for none. */
  private static Duration cpu(ProcessHandle p) {
    if (p == null) {
      return Duration.ZERO;
    }
    return Stream.concat(Stream.of(p), p.descendants())
        .map(h -> h.info().totalCpuDuration().orElse(Duration.ZERO))
        .reduce(Duration.ZERO, Duration::plus);
  }
}
