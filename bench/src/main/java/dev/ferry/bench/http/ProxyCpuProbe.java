package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.interop.CxfPeer;
import dev.ferry.soap.SoapCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.cxf.Bus;

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
 * {@code ferry-broker,nginx}, a fifth the clients that call, {@code ferry} by default, or
 * {@code ferry,cxf} for CXF's generated port as well: chunked past 4,000 bytes, its default).
 * Beside {@code ferry-broker}, its variants of {@link OpsSettings} ({@code ferry-broker-json},
 * {@code ferry-broker-traced}, {@code ferry-broker-messages}, ...) measure what JSON logs, spans
 * exported over OTLP (to a sink in this JVM) and message logging cost the broker.
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
    List<String> callerNames = args.length > 4 ? List.of(args[4].split(",")) : List.of("ferry");
    Map<String, List<double[]>> rounds = new LinkedHashMap<>(); // per pair: {calls/s, CPU us}
    Bus bus = CxfPeer.newBus();
    try (OtlpSink spans = OtlpSink.start();
        Relays relays = Relays.start(paths, spans);
        SoapClient client = SoapClient.builder().ioThreads(Math.min(clients, 2)).build()) {
      Map<String, ProbeCalls.Caller> callers = new LinkedHashMap<>();
      Map<String, ProcessHandle> relayOf = new LinkedHashMap<>();
      for (String path : paths) {
        for (String name : callerNames) {
          String pair = name + " -> " + path;
          callers.put(pair, ProbeCalls.caller(name, relays.uri(path), client, codec, bus));
          relayOf.put(pair, relays.process(path));
          ProbeCalls.run(callers.get(pair), blob, clients, seconds); // warm-up
          rounds.put(pair, new ArrayList<>());
        }
      }
      // the pairs take turns, so that a slower stretch of the machine falls on each of them
      for (int round = 0; round < ROUNDS; round++) {
        for (Map.Entry<String, ProbeCalls.Caller> e : callers.entrySet()) {
          Duration before = cpu(relayOf.get(e.getKey()));
          long calls = ProbeCalls.run(e.getValue(), blob, clients, seconds / ROUNDS);
          double cpuUs = cpu(relayOf.get(e.getKey())).minus(before).toNanos() / 1e3 / calls;
          rounds.get(e.getKey()).add(new double[] {calls / (double) (seconds / ROUNDS), cpuUs});
        }
      }
    } finally {
      bus.shutdown(true);
    }
    for (Map.Entry<String, List<double[]>> e : rounds.entrySet()) {
      System.out.printf("%-22s %8d B  %2d clients: %8.0f calls/s, relay CPU %6.1f us a call"
          + " (rounds: %s)%n", e.getKey(), size, clients, ProbeCalls.median(e.getValue(), 0),
          ProbeCalls.median(e.getValue(), 1), e.getValue().stream()
              .map(r -> String.format("%.1f", r[1])).toList());
    }
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
