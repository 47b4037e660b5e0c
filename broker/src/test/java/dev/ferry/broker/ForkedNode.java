package dev.ferry.broker;

import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.mime.MimeLimits;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * One Ferry node in its own JVM, for tests that bound each JVM's heap: {@code server PORTFILE},
 * {@code broker BACKEND_URL PORTFILE} (both run until stdin closes) or
 * {@code client URL BYTES} (sends one echo of a generated blob, checks length and CRC, exits 0
 * if whole).
 */
public final class ForkedNode {
  private ForkedNode() {}

  /** Limits for gigabyte messages: 4 GiB a part and a message. */
  static SoapCodec bigCodec() {
    long big = 4L << 30;
    return SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder().mime(
        MimeLimits.builder().maxPartBytes(big).maxMessageBytes(big).build()).build()).build(),
        XopCodec.builder());
  }

  /** A node running in its own JVM; closing it closes its stdin and waits for it to exit. */
  record Running(Process process, int port) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      process.getOutputStream().close(); // servers exit when stdin closes
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /**
   * Starts a node in its own JVM (256 MiB heap, its temp files in {@code dir/node-tmp}, its
   * output in {@code dir/node.out} and {@code .err}) with {@code args}.
   */
  static Process start(Path dir, String node, String... args) throws IOException {
    Path tmp = Files.createDirectories(dir.resolve(node + "-tmp"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-Djava.io.tmpdir=" + tmp,
        "-Djava.util.logging.config.file=" + System.getProperty(
            "java.util.logging.config.file", ""),
        "-cp", System.getProperty("java.class.path"), ForkedNode.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectOutput(dir.resolve(node + ".out").toFile())
        .redirectError(dir.resolve(node + ".err").toFile()).start();
  }

  /** Waits for a node to write its port to {@code file}. */
  static int awaitPort(Path file, Process p) throws Exception {
    for (int i = 0; i < 600; i++) {
      if (Files.exists(file) && !Files.readString(file).isBlank()) {
        return Integer.parseInt(Files.readString(file).strip());
      }
      if (!p.isAlive()) {
        throw new IllegalStateException("node exited with " + p.exitValue());
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("node did not start in 30 s");
  }

  /** Starts the echo server in its own JVM, on a port it picks. */
  static Running server(Path dir, String node) throws Exception {
    Process p = start(dir, node, "server", dir.resolve(node + ".port").toString());
    try {
      return new Running(p, awaitPort(dir.resolve(node + ".port"), p));
    } catch (Exception e) {
      p.destroyForcibly();
      throw e;
    }
  }

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "server" -> {
        try (SoapServer s = SoapServer.builder().codec(bigCodec())
            .endpoint("/echo", EchoService.dispatcher()).build().start()) {
          Files.writeString(Path.of(args[1]), Integer.toString(s.port()));
          System.in.transferTo(OutputStream.nullOutputStream());
        }
      }
      case "broker" -> {
        try (Broker b = Broker.builder().codec(bigCodec()).routes(Routes.parse(
            "timeout: 60s\nroutes:\n  - path: /echo\n    to: " + args[1] + "\n")).build()
            .start()) {
          Files.writeString(Path.of(args[2]), Integer.toString(b.port()));
          System.in.transferTo(OutputStream.nullOutputStream());
        }
      }
      case "client" -> System.exit(client(args[1], Long.parseLong(args[2])));
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  private static int client(String url, long size) throws IOException {
    SoapCodec codec = bigCodec();
    Generated blob = new Generated(size, 42);
    try (SoapClient client = SoapClient.builder().codec(codec).timeout(Duration.ofSeconds(60))
            .build();
        SoapResponse r = client.call(java.net.URI.create(url), EchoService.request(codec,
            SoapVersion.SOAP_11, MtomPolicy.DEFAULT, "gigabyte", blob, size), null)) {
      CRC32 crc = new CRC32();
      EchoService.Echo e = EchoService.readEcho(r.message(), new OutputStream() {
        @Override
        public void write(int b) {
          crc.update(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
          crc.update(b, off, len);
        }
      });
      long heap = Runtime.getRuntime().maxMemory();
      System.out.println("echo " + e.length() + " bytes crc " + Long.toHexString(crc.getValue())
          + " sent crc " + Long.toHexString(blob.crc()) + " heap " + (heap >> 20) + " MiB");
      return e.length() == size && crc.getValue() == blob.crc() ? 0 : 1;
    }
  }

  /** A stream of {@code size} pseudo-random bytes whose CRC it keeps as they are read. */
  static final class Generated extends InputStream {
    private final SplittableRandom random;
    private final CRC32 crc = new CRC32();
    private long left;

    Generated(long size, long seed) {
      this.left = size;
      this.random = new SplittableRandom(seed);
    }

    long crc() {
      return crc.getValue();
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      for (int i = 0; i < n; i++) {
        b[off + i] = (byte) random.nextInt();
      }
      crc.update(b, off, n);
      left -= n;
      return n;
    }
  }
}
