package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** {@code ferry demo} with a small size set, embedded and against an external service. */
class DemoCliTest {
  @TempDir Path dir;

  @Test
  void printsTheTableTheFindingsAndWritesTheChart() throws Exception {
    Path png = dir.resolve("demo.png");
    Result r = ferry("demo", "--sizes", "1K,64K", "--repetitions", "3", "--duration", "2s",
        "--chart", png.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("(embedded)").contains("broker       http://127.0.0.1:")
        .containsPattern("Warm-up: \\d+ rounds in [\\d.]+ s").contains("Timed: ")
        .containsPattern("MTOM p50 +p90 +calls +base64 p50 +p90 +calls +base64/MTOM")
        .containsPattern("(?m)^ 1 KiB  direct  .*$").containsPattern("(?m)^ 1 KiB  brokered.*$")
        .containsPattern("(?m)^64 KiB  direct  .*$").containsPattern("(?m)^64 KiB  brokered.*$")
        .contains("MTOM against base64 (p50), direct: MTOM is")
        .containsPattern("The broker adds \\(p50 brokered minus direct[^)]*\\): with"
            + "\\s+MTOM\\s+1 KiB -?\\d+\\.\\d\\d ms")
        .contains("Chart: " + png.toAbsolutePath());
    assertThat(r.err()).contains("demo: 100/100 (100%), done").doesNotContain("POST /echo");
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
      Result r = ferry("demo", "--url", url, "--sizes", "2K", "-n", "1", "--duration", "1s",
          "--json", "--no-progress", "--chart", png.toString());
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

  /**
   * The measurement at small sizes, as the demo makes it, judged by its own figures: every row
   * has its minimum of calls and at least one in every timed round, its percentiles in order and
   * its p50 inside its confidence interval; and the timed rounds stopped before the budget only
   * if every p50 was known within the target.
   */
  @Test
  void theMeasurementAgreesWithItself() throws Exception {
    Result r = ferry("demo", "--sizes", "1K,4K", "--repetitions", "20", "--duration", "3s",
        "--json", "--no-progress", "--chart", dir.resolve("small.png").toString());
    assertThat(r.exit()).as(r.err()).isZero();
    Map<String, Object> json = new Yaml().load(r.out()); // JSON is YAML
    Map<String, Object> warmUp = map(json.get("warmUp"));
    Map<String, Object> timed = map(json.get("timed"));
    int rounds = ((Number) timed.get("rounds")).intValue();
    assertThat(((Number) warmUp.get("rounds")).intValue()).isPositive();
    assertThat(rounds).isPositive();
    double spent = number(warmUp, "seconds") + number(timed, "seconds");
    List<?> rows = (List<?>) json.get("results");
    assertThat(rows).hasSize(8);
    for (Object o : rows) {
      Map<String, Object> row = map(o);
      String label = row.get("blobBytes") + " " + row.get("encoding") + " " + row.get("route");
      assertThat(((Number) row.get("calls")).intValue()).as(label)
          .isGreaterThanOrEqualTo(Math.max(20, rounds));
      double p50 = number(row, "p50Millis");
      assertThat(number(row, "p10Millis")).as(label).isPositive().isLessThanOrEqualTo(p50);
      assertThat(number(row, "p90Millis")).as(label).isGreaterThanOrEqualTo(p50)
          .isLessThanOrEqualTo(number(row, "maxMillis"));
      double low = number(row, "p50LowMillis");
      double high = number(row, "p50HighMillis");
      assertThat(p50).as(label).isBetween(low, high);
      if (spent < 3.0) {
        assertThat((high - low) / 2 / p50).as(label + ": stopped early, so known within 5%")
            .isLessThanOrEqualTo(DemoMeasurement.TARGET_ERROR);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  private static double number(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).doubleValue();
  }

  @Test
  void anUnreachableServiceIsANetworkErrorAndBadOptionsAreUsageErrors() {
    Result r = ferry("demo", "--url", "http://127.0.0.1:1/echo", "--sizes", "1K",
        "--no-progress", "--chart", dir.resolve("x.png").toString());
    assertThat(r.exit()).isEqualTo(4);
    assertThat(r.err()).contains("cannot connect").doesNotContain("\tat ");
    assertThat(ferry("demo", "--repetitions", "0").exit()).isEqualTo(2);
    assertThat(ferry("demo", "--duration", "0s").err()).contains("not a positive duration");
    assertThat(ferry("demo", "--duration", "soon").err())
        .contains("not a duration such as 10s or 1m: 'soon'");
    Result chart = ferry("demo", "--chart", dir.resolve("no/such/dir/x.png").toString());
    assertThat(chart.exit()).isEqualTo(2);
    assertThat(chart.err()).contains("--chart: no such directory");
    assertThat(ferry("demo", "--sizes", "1K,huge").err()).contains("not a size: 'huge'");
  }

  @Test
  void helpExplainsWhatIsMeasured() {
    Result r = ferry("demo", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("12M").contains("--repetitions").contains("--duration")
        .contains("--url").contains("Examples:");
  }
}
