package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * How much CPU a relay costs per call, where latency alone cannot tell: on a machine of two
 * cores, every microsecond a proxy computes is one the client and the backend wait for. Sends
 * the 32 KiB MTOM echo through Ferry's broker in a JVM of its own ({@link RelayProcess}, as
 * {@code ferry broker} runs), through Jetty's own reverse proxy in a JVM of its own (the library
 * under the broker, relaying bytes it does not read), and through nginx ({@link Nginx}, request
 * bodies in memory), one
 * path after the other, and reads each proxy's CPU time (user + system, all its threads or
 * worker processes, as the operating system counts them) before and after the measured calls;
 * also this JVM's own (client and backend) per call on each path. Not a JMH benchmark:
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar \
 *     dev.ferry.bench.http.ProxyCpuProbe 32768 20000
 * </pre>
 *
 * <p>(size in bytes, calls measured per path after as many of warm-up).
 */
public final class ProxyCpuProbe {
  private ProxyCpuProbe() {}

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    int n = Integer.parseInt(args[1]);
    AccessLog.quiet();
    SoapCodec codec = SoapCodec.create();
    ByteString blob = BrokerPathsProbe.blob(size);
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
            .build().start();
        RelayProcess broker = RelayProcess.broker(server.uri("/echo"));
        RelayProcess jetty = RelayProcess.jettyProxy(server.uri("/echo"));
        Nginx nginx = Nginx.start(server.port(), true);
        SoapClient client = SoapClient.create()) {
      measure("direct", null, server.uri("/echo"), n, client, codec, blob);
      measure("broker-process", broker.process(), broker.uri("/echo"), n, client, codec, blob);
      measure("jetty-proxy", jetty.process(), jetty.uri("/echo"), n, client, codec, blob);
      measure("nginx", nginx.process(), URI.create("http://127.0.0.1:" + nginx.port()
          + "/echo"), n, client, codec, blob);
    }
  }

  private static void measure(String name, ProcessHandle proxy, URI uri, int n,
      SoapClient client, SoapCodec codec, ByteString blob) throws IOException {
    for (int i = 0; i < n; i++) {
      BrokerPathsProbe.call(client, codec, uri, blob);
    }
    Duration proxyBefore = cpu(proxy);
    long selfBefore = selfCpuNanos();
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      BrokerPathsProbe.call(client, codec, uri, blob);
    }
    long wall = System.nanoTime() - start;
    double proxyUs = cpu(proxy).minus(proxyBefore).toNanos() / 1e3 / n;
    double selfUs = (selfCpuNanos() - selfBefore) / 1e3 / n;
    System.out.printf("%-14s %d calls: %7.1f us a call (wall), proxy CPU %6.1f us a call,"
        + " client and backend CPU %6.1f us a call%n", name, n, wall / 1e3 / n, proxyUs, selfUs);
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

  private static long selfCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
