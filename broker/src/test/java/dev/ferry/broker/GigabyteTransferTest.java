package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

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
      Process server = ForkedNode.start(dir, "server", "server",
          dir.resolve("server.port").toString());
      nodes.add(server);
      int serverPort = ForkedNode.awaitPort(dir.resolve("server.port"), server);
      Process broker = ForkedNode.start(dir, "broker", "broker",
          "http://127.0.0.1:" + serverPort + "/echo", dir.resolve("broker.port").toString());
      nodes.add(broker);
      int brokerPort = ForkedNode.awaitPort(dir.resolve("broker.port"), broker);
      Process client = ForkedNode.start(dir, "client", "client",
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
}
