package dev.ferry.bench.http;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.Arrays;
import java.util.Random;

/**
 * The same paths as {@link BrokerOverheadBenchmark} (direct, broker in this JVM, broker in a
 * JVM of its own, Jetty's reverse proxy in a JVM of its own, nginx with request bodies in
 * memory), but called in turn, call by call, from
 * one JVM, so that load from elsewhere on the machine falls on all of them alike; prints
 * median, 90th percentile and mean per path. On a shared machine this tells small differences
 * apart where JMH's trials, minutes apart, cannot. Not a JMH benchmark: run it with the
 * benchmarks jar on the class path,
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar \
 *     dev.ferry.bench.http.BrokerPathsProbe 32768 8000
 * </pre>
 *
 * <p>(size in bytes, calls per path measured after as many halves of warm-up).
 */
public final class BrokerPathsProbe {
  private static final String[] NAMES =
      {"direct", "broker", "broker-process", "jetty-proxy", "nginx"};

  private BrokerPathsProbe() {}

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    int n = Integer.parseInt(args[1]);
    AccessLog.quiet();
    SoapCodec codec = SoapCodec.create();
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
            .build().start();
        Broker broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + server.uri("/echo") + "\n")).build().start();
        RelayProcess process = RelayProcess.broker(server.uri("/echo"));
        RelayProcess jetty = RelayProcess.jettyProxy(server.uri("/echo"));
        Nginx nginx = Nginx.start(server.port(), true);
        SoapClient client = SoapClient.create()) {
      URI[] uris = {server.uri("/echo"), broker.uri("/echo"), process.uri("/echo"),
          jetty.uri("/echo"), URI.create("http://127.0.0.1:" + nginx.port() + "/echo")};
      ByteString blob = blob(size);
      int warm = n / 2;
      long[][] t = new long[NAMES.length][n];
      for (int i = 0; i < warm + n; i++) {
        for (int j = 0; j < NAMES.length; j++) {
          int k = (i + j) % NAMES.length;
          long start = System.nanoTime();
          call(client, codec, uris[k], blob);
          if (i >= warm) {
            t[k][i - warm] = System.nanoTime() - start;
          }
        }
      }
      double[] median = new double[NAMES.length];
      for (int k = 0; k < NAMES.length; k++) {
        long[] c = t[k].clone();
        Arrays.sort(c);
        median[k] = c[n / 2] / 1e3;
        System.out.printf("%-14s %8d B  median %7.1f us  p90 %7.1f  mean %7.1f%n", NAMES[k],
            size, median[k], c[n * 9 / 10] / 1e3,
            Arrays.stream(c).average().orElse(0) / 1e3);
      }
      System.out.printf("adds over direct (median): broker %.1f us, broker-process %.1f us,"
          + " jetty-proxy %.1f us, nginx %.1f us%n", median[1] - median[0],
          median[2] - median[0], median[3] - median[0], median[4] - median[0]);
    }
  }

  /** The echo's blob of {@code size} random bytes, the same for every run of that size. */
  static ByteString blob(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return ByteString.of(b);
  }

  /** One echo call through {@code uri}, checked to come back whole. */
  static void call(SoapClient client, SoapCodec codec, URI uri, ByteString blob)
      throws IOException {
    try (SoapResponse r = client.call(uri, EchoService.request(codec, SoapVersion.SOAP_11,
        MtomPolicy.DEFAULT, "bench", blob), EchoService.SOAP_ACTION)) {
      if (EchoService.readEcho(r.message(), OutputStream.nullOutputStream()).length()
          != blob.size()) {
        throw new IllegalStateException("the echo through " + uri + " is not whole");
      }
    }
  }
}
