package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.interop.CxfPeer;
import dev.ferry.soap.SoapCodec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * clients, such as {@code ferry-jaxws,cxf ferry}). Besides the three servers, {@code
 * ferry-serve-json}, {@code ferry-serve-traced}, {@code ferry-serve-messages} and the other
 * variants of {@link OpsSettings} are {@code ferry serve} with its access log as JSON, with spans
 * exported over OTLP (to a sink in this JVM), with message logging and so on, for what each costs
 * beside {@code ferry-serve}.
 */
public final class ServerCpuProbe {
  private static final int ROUNDS = 5;
  static final List<String> SERVERS = List.of("ferry-serve", "ferry-jaxws", "cxf");
  
  private ServerCpuProbe() {}

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    int threads = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    List<String> servers = args.length > 3 ? List.of(args[3].split(",")) : SERVERS;
    List<String> clients = args.length > 4 ? List.of(args[4].split(",")) : ProbeCalls.CLIENTS;
    ByteString blob = BrokerOverheadBenchmark.blob(size);
    SoapCodec codec = SoapCodec.create();
    Bus bus = CxfPeer.newBus();
    Map<String, RelayProcess> running = new LinkedHashMap<>();
    Map<String, List<double[]>> rounds = new LinkedHashMap<>();
    try (OtlpSink spans = OtlpSink.start();
        SoapClient ferry = SoapClient.builder().ioThreads(Math.min(threads, 2)).build()) {
      Map<String, ProbeCalls.Caller> callers = new LinkedHashMap<>();
      for (String server : servers) {
        RelayProcess p = start(server, spans);
        running.put(server, p);
        for (String client : clients) {
          String pair = client + " -> " + server;
          callers.put(pair, ProbeCalls.caller(client, p.address(), ferry, codec, bus));
          ProbeCalls.run(callers.get(pair), blob, threads, seconds); // warm-up
          rounds.put(pair, new ArrayList<>());
        }
      }
      for (int round = 0; round < ROUNDS; round++) {
        for (Map.Entry<String, ProbeCalls.Caller> e : callers.entrySet()) {
          RelayProcess server = running.get(e.getKey().substring(e.getKey().indexOf("> ") + 2));
          Duration before = cpu(server);
          long calls = ProbeCalls.run(e.getValue(), blob, threads, seconds / ROUNDS);
          double cpuUs = cpu(server).minus(before).toNanos() / 1e3 / calls;
          rounds.get(e.getKey()).add(new double[] {calls / (double) (seconds / ROUNDS), cpuUs});
        }
      }
      if (spans.exports() > 0) { // the traced server's spans did leave it
        System.out.printf("OTLP exports taken: %d, %d bytes%n", spans.exports(), spans.bytes());
      }
    } finally {
      for (RelayProcess p : running.values()) {
        p.close();
      }
      bus.shutdown(true);
    }
    for (Map.Entry<String, List<double[]>> e : rounds.entrySet()) {
      System.out.printf("%-22s %8d B %2d threads: %7.0f calls/s, server CPU %7.1f us a call"
          + " (rounds: %s)%n", e.getKey(), size, threads, ProbeCalls.median(e.getValue(), 0),
          ProbeCalls.median(e.getValue(), 1), e.getValue().stream()
              .map(r -> String.format("%.1f", r[1])).toList());
    }
  }

  /**
   * Starts the server {@code name} names: {@code ferry serve} as it ships or in one of the
   * variants of {@link OpsSettings} (spans to {@code spans}), else the echo of
   * {@link EchoServerMain}.
   */
  private static RelayProcess start(String name, OtlpSink spans) throws IOException {
    if (OpsSettings.isVariant(name, "ferry-serve")) {
      OpsSettings s = OpsSettings.of(name, "ferry-serve", spans);
      return RelayProcess.serve(s.environment(), s.options().toArray(String[]::new));
    }
    return RelayProcess.echoServer(name);
  }

  private static Duration cpu(RelayProcess p) {
    return p.process().info().totalCpuDuration().orElse(Duration.ZERO);
  }
}
