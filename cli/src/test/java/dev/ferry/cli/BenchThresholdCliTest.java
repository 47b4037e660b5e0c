package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ferry bench threshold} as a user runs it (with --quick: half a second). */
class BenchThresholdCliTest {
  @TempDir Path dir;

  @Test
  void printsATableTheVerdictAndThePolicyToConfigure() throws Exception {
    Path png = dir.resolve("threshold.png");
    Result r = ferry("bench", "threshold", "--quick", "--sizes", "256,1K,64K",
        "--chart", png.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("base64 p50 µs").contains("MTOM wire B")
        .containsPattern("(?m)^ *256 B .*\\s616\\s+1102$")
        .contains("64 KiB").contains("time: ").contains("quick in-process estimate")
        .contains("JMH ThresholdBenchmark")
        .contains("wire: MTOM is cheaper from 64 KiB up, base64 at 1 KiB")
        .containsPattern("Configure: MtomPolicy\\.threshold\\(\\d+\\)|No threshold found")
        .contains("Chart: " + png.toAbsolutePath());
    assertThat(r.err()).as("progress as plain lines: no terminal in a test")
        .contains("measuring: 100/100 (100%), done").doesNotContain("\r");
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isPositive();
  }

  @Test
  void jsonCarriesEverySizeAndTheThreshold() {
    Result r = ferry("bench", "threshold", "--quick", "--json", "--no-progress",
        "--sizes", "64K,256"); // any order: measured ascending
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    String json = r.out().strip();
    assertThat(json).startsWith("{\"sizes\":[{\"blobBytes\":256,")
        .contains("{\"blobBytes\":65536,").contains("\"wireBytes\":616")
        .contains("\"defaultThresholdBytes\":2048").endsWith("\"chart\":null}");
    Matcher threshold = Pattern.compile("\"thresholdBytes\":(null|\\d+)").matcher(json);
    assertThat(threshold.find()).isTrue();
    if (!threshold.group(1).equals("null")) {
      assertThat(Integer.parseInt(threshold.group(1))).isBetween(256, 65536);
    }
    assertThat(json).contains("\"wire\":{\"kind\":\"BETWEEN_SIZES\",\"lastBase64Bytes\":256,"
        + "\"firstMtomBytes\":65536");
  }

  @Test
  void helpSaysItIsAQuickEstimateAndShowsExamples() {
    Result r = ferry("bench", "threshold", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("quick estimate").contains("JMH ThresholdBenchmark")
        .contains("Examples:").contains("--chart").contains("--json");
  }

  @Test
  void badOptionsAreUsageErrors() {
    Result size = ferry("bench", "threshold", "--sizes", "1K,lots");
    assertThat(size.exit()).isEqualTo(2);
    assertThat(size.err()).contains("not a size: 'lots'");
    Result seconds = ferry("bench", "threshold", "--seconds", "0");
    assertThat(seconds.exit()).isEqualTo(2);
    assertThat(seconds.err()).contains("--seconds must be above 0").doesNotContain("\tat ");
  }

  @Test
  void aChartInAMissingDirectoryIsRefusedBeforeMeasuring() {
    Path png = dir.resolve("missing").resolve("chart.png");
    Result r = ferry("bench", "threshold", "--no-progress", "--chart", png.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("ferry: --chart: no such directory: ")
        .contains("missing").doesNotContain("\tat ");
  }

  @Test
  void aChartThatCannotBeWrittenIsAnIoErrorWithoutAStackTrace() throws Exception {
    Path png = Files.createDirectory(dir.resolve("a-directory.png"));
    Result r = ferry("bench", "threshold", "--quick", "--no-progress", "--sizes", "1K",
        "--chart", png.toString());
    assertThat(r.exit()).isEqualTo(4);
    assertThat(r.err()).startsWith("ferry: ").contains("a-directory.png")
        .doesNotContain("\tat ");
  }
}
