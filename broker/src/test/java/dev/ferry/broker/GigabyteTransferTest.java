package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1 GiB attachment goes client -> broker -> server -> broker -> client, each in its own JVM
 * with a 256 MiB heap, and comes back whole (length and CRC-32); afterwards no JVM has left a
 * temp file behind. Set {@code -Dferry.gigabyte.bytes} to try another size.
 */
class GigabyteTransferTest {
  private static final long SIZE = Long.getLong("ferry.gigabyte.bytes", 1L << 30);

  @Test
  void aGigabyteRoundTripsThroughTheBrokerInBoundedHeaps(@TempDir Path dir) throws Exception {
    List<Process> nodes = new ArrayList<>();
    try {
      Process server = start(dir, "server", "server", dir.resolve("server.port").toString());
      nodes.add(server);
      int serverPort = awaitPort(dir.resolve("server.port"), server);
      Process broker = start(dir, "broker", "broker",
          "http://127.0.0.1:" + serverPort + "/echo", dir.resolve("broker.port").toString());
      nodes.add(broker);
      int brokerPort = awaitPort(dir.resolve("broker.port"), broker);
      Process client = start(dir, "client", "client",
          "http://127.0.0.1:" + brokerPort + "/echo", Long.toString(SIZE));
      nodes.add(client);
      assertThat(client.waitFor(10, TimeUnit.MINUTES)).as("client finished").isTrue();
      String out = Files.readString(dir.resolve("client.out"));
      assertThat(client.exitValue()).as(out + Files.readString(dir.resolve("client.err")))
          .isZero();
      assertThat(out).contains("echo " + SIZE + " bytes").contains("heap 256 MiB");
    } finally {
      for (Process p : nodes) {
        p.getOutputStream().close(); // servers exit when stdin closes
      }
      for (Process p : nodes) {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
    for (String node : List.of("server", "broker", "client")) {
      try (Stream<Path> left = Files.list(dir.resolve(node + "-tmp"))) {
        assertThat(left.toList()).as(node + " temp files").isEmpty();
      }
    }
  }

  private static Process start(Path dir, String node, String... args) throws IOException {
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

  private static int awaitPort(Path file, Process p) throws Exception {
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
}
