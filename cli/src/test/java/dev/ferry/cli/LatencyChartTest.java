package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyChartTest {
  @TempDir Path dir;

  @Test
  void writesAPngThatDecodesWithFourSeriesOnLogAxes() throws IOException {
    double[] sizes = {1024, 65536, 1 << 20, 12 << 20};
    Path png = dir.resolve("latency"); // no extension: the chart must not add one
    new LatencyChart("echo latency", "latency, ms")
        .addSeries("MTOM, direct", LatencyChart.MTOM_COLOUR, false, sizes,
            new double[] {0.2, 0.4, 3, 30})
        .addSeries("MTOM, brokered", LatencyChart.MTOM_COLOUR, true, sizes,
            new double[] {0.3, 0.6, 5, 50})
        .addSeries("base64, direct", LatencyChart.BASE64_COLOUR, false, sizes,
            new double[] {0.1, 0.9, 9, 120})
        .addSeries("base64, brokered", LatencyChart.BASE64_COLOUR, true, sizes,
            new double[] {0.2, 1.2, 0, 150}) // a zero cannot sit on a log axis: drawn at the floor
        .writePng(png);
    assertThat(png).exists();
    assertThat(System.getProperty("java.awt.headless")).isEqualTo("true");
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isEqualTo(1000);
    assertThat(image.getHeight()).isEqualTo(640);
    assertThat(distinctColours(image)).as("more than a blank canvas").isGreaterThan(10);
    assertThat(Files.list(dir)).containsExactly(png);
  }

  @Test
  void anUnwritablePlaceIsAnIoError() {
    Path png = dir.resolve("no-such-dir").resolve("chart.png");
    assertThatThrownBy(() -> new LatencyChart("t", "ms")
        .addSeries("a", LatencyChart.MTOM_COLOUR, false, new double[] {1, 2},
            new double[] {1, 2})
        .writePng(png)).isInstanceOf(IOException.class);
  }

  private static long distinctColours(BufferedImage image) {
    java.util.Set<Integer> colours = new java.util.HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 3) {
      for (int x = 0; x < image.getWidth(); x += 3) {
        colours.add(image.getRGB(x, y));
      }
    }
    return colours.size();
  }
}
