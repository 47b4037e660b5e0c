package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ferry demo} with a small size set, embedded and against an external service. */
class DemoCliTest {
  @TempDir Path dir;

  @Test
  void printsTheTableAndWritesTheChart() throws Exception {
    Path png = dir.resolve("demo.png");
    Result r = ferry("demo", "--sizes", "1K,64K", "--repetitions", "2", "--warmup", "0",
        "--chart", png.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("(embedded)").contains("broker       http://127.0.0.1:")
        .contains("MTOM p50").contains("base64 p90").contains("base64/MTOM")
        .containsPattern("(?m)^ 1 KiB  direct  .*$").containsPattern("(?m)^ 1 KiB  brokered.*$")
        .containsPattern("(?m)^64 KiB  direct  .*$").containsPattern("(?m)^64 KiB  brokered.*$")
        .contains("Chart: " + png.toAbsolutePath());
    // 4 combinations per size, each one checked call and two timed ones: 24 calls.
    assertThat(r.err()).contains("demo: 24/24 (100%), done").doesNotContain("POST /echo");
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isPositive();
    assertThat(image.getHeight()).isPositive();
  }

  @Test
  void callsAnExternalServiceThroughTheBrokerAndPrintsJson() throws Exception {
    Path png = dir.resolve("external.png");
    try (RunningFerry serve = new RunningFerry("serve", "--port", "0")) {
      String url = serve.awaitUrl("echo service at ");
      Result r = ferry("demo", "--url", url, "--sizes", "2K", "-n", "1", "--json",
          "--no-progress", "--chart", png.toString());
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.err()).isEmpty();
      assertThat(r.out().strip()).startsWith("{\"echoService\":\"" + url + "\",\"embedded\":false")
          .contains("{\"blobBytes\":2048,\"encoding\":\"MTOM\",\"route\":\"direct\"")
          .contains("{\"blobBytes\":2048,\"encoding\":\"base64\",\"route\":\"brokered\"")
          .contains("\"repetitions\":1")
          .endsWith("\"chart\":\"" + png.toAbsolutePath().toString().replace("\\", "\\\\")
              + "\"}");
      assertThat(ImageIO.read(png.toFile())).isNotNull();
    }
  }

  @Test
  void anUnreachableServiceIsANetworkErrorAndBadOptionsAreUsageErrors() {
    Result r = ferry("demo", "--url", "http://127.0.0.1:1/echo", "--sizes", "1K",
        "--no-progress", "--chart", dir.resolve("x.png").toString());
    assertThat(r.exit()).isEqualTo(4);
    assertThat(r.err()).contains("cannot connect").doesNotContain("\tat ");
    assertThat(ferry("demo", "--repetitions", "0").exit()).isEqualTo(2);
    Result chart = ferry("demo", "--chart", dir.resolve("no/such/dir/x.png").toString());
    assertThat(chart.exit()).isEqualTo(2);
    assertThat(chart.err()).contains("--chart: no such directory");
    assertThat(ferry("demo", "--sizes", "1K,huge").err()).contains("not a size: 'huge'");
  }

  @Test
  void helpExplainsWhatIsMeasured() {
    Result r = ferry("demo", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("12 MiB").contains("--repetitions").contains("--url")
        .contains("Examples:");
  }
}
