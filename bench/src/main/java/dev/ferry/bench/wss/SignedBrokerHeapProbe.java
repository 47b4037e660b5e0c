package dev.ferry.bench.wss;

import dev.ferry.bench.http.AccessLog;
import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.xop.MtomPolicy;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A broker that verifies a signed request (Timestamp, Body and Timestamp signed) and forwards it
 * with an attachment of the given size (default 200 MiB) to a backend that verifies the
 * signature again, client, broker and backend in this one JVM: run it with {@code -Xmx256m} and
 * it passes only if the whole of it fits, the attachment streaming through and never held. It
 * prints the peak heap used (all heap pools' peaks, added).
 *
 * <pre>
 * java -Xmx256m -cp bench/target/benchmarks.jar dev.ferry.bench.wss.SignedBrokerHeapProbe 200M
 * </pre>
 */
public final class SignedBrokerHeapProbe {
  private SignedBrokerHeapProbe() {}

  public static void main(String[] args) throws Exception {
    long bytes = args.length > 0 ? parse(args[0]) : 200L << 20;
    AccessLog.quiet();
    SoapCodec codec = SoapCodec.create(); // parts up to 256 MiB by default
    WsSecurity backendCheck = WsSecurity.builder().inbound(WssKeys.SIGNED)
        .credentials(WssKeys.service()).build();
    Path dir = Files.createTempDirectory("ferry-heap-probe");
    TestPki.writePem(dir.resolve("ca.pem"), WssKeys.PKI.certificate());
    long[] received = new long[1];
    try (SoapServer backend = SoapServer.builder().codec(codec).endpoint("/echo",
        Dispatcher.builder().guard(backendCheck).fallback(m -> {
          try (InputStream in = m.attachments().attachments().iterator().next().openStream()) {
            received[0] = in.transferTo(OutputStream.nullOutputStream());
          }
          return null; // one-way: nothing echoed, so only the request's path is measured
        }).build()).build().start()) {
      Path routes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n  - path: /echo\n"
          + "    to: " + backend.uri("/echo") + "\n    wsSecurity:\n      inbound:\n"
          + "        timestamp: 5m\n        signBody: true\n        signTimestamp: true\n"
          + "      trust: ca.pem\n");
      try (Broker broker = Broker.builder().codec(codec).routes(Routes.load(routes)).build()
          .start(); SoapClient client = SoapClient.builder().codec(codec)
          .timeout(Duration.ofMinutes(2)).build()) {
        WsSecurity signer = WsSecurity.builder().outbound(WssKeys.SIGNED)
            .credentials(WssKeys.client()).build();
        Payload p = EchoService.request(codec, SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "big",
            new Zeros(bytes), bytes);
        long start = System.nanoTime();
        try (SoapResponse r = client.call(SoapRequest.builder(broker.uri("/echo"), p)
            .guard(signer).build())) {
          if (r.status() != 202 || received[0] != bytes) {
            throw new IllegalStateException("HTTP " + r.status() + ", the backend read "
                + received[0] + " of " + bytes + " bytes");
          }
        }
        System.out.printf("%d MiB signed, verified by the broker and the backend in %.1f s;"
            + " max heap %d MiB, peak used %d MiB%n", bytes >> 20,
            (System.nanoTime() - start) / 1e9, Runtime.getRuntime().maxMemory() >> 20,
            peakHeap() >> 20);
      }
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  private static long parse(String size) {
    String s = size.strip().toUpperCase();
    long unit = s.endsWith("G") ? 1L << 30 : s.endsWith("M") ? 1L << 20 : s.endsWith("K")
        ? 1L << 10 : 1;
    return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
  }

  /** {@code length} zero bytes, made as they are read. */
  private static final class Zeros extends InputStream {
    private long left;

    Zeros(long length) {
      this.left = length;
    }

    @Override
    public int read() {
      if (left <= 0) {
        return -1;
      }
      left--;
      return 0;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left <= 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      java.util.Arrays.fill(b, off, off + n, (byte) 0);
      left -= n;
      return n;
    }
  }
}
