package dev.ferry.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Latency by blob size as a PNG (XChart): both axes logarithmic, because sizes span 1 KiB to
 * 12 MiB and latencies several orders of magnitude. One line per series; the caller picks a
 * colour per encoding and a dashed line for the brokered route, so the eye pairs them.
 */
final class LatencyChart {
  static {
    // A command line never opens a window; without this, AWT on a machine without a display
    // could try to reach one. Set before the first chart touches AWT; a user's -D still wins.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  static final Color MTOM_COLOUR = new Color(0x1f, 0x77, 0xb4);
  static final Color BASE64_COLOUR = new Color(0xff, 0x7f, 0x0e);
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 640;
  private static final double SMALLEST_ON_LOG_AXIS = 1e-9;
  /** Light enough that two bands overlapping still show the lines through them. */
  private static final int BAND_ALPHA = 40;

  private final XYChart chart;

  LatencyChart(String title, String yAxisTitle) {
    chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("blob size, bytes (log scale)").yAxisTitle(yAxisTitle + " (log scale)").build();
    chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true)
        .setYAxisLogarithmicDecadeOnly(false) // latencies span fewer decades than sizes
        .setXAxisDecimalPattern("#,##0").setYAxisDecimalPattern("#,##0.###")
        .setLegendPosition(Styler.LegendPosition.InsideNW)
        .setChartBackgroundColor(Color.WHITE)
        .setMarkerSize(7);
  }

  /**
   * Adds a line through ({@code sizes[i]} bytes, {@code latencies[i]}); latencies in the unit
   * named by the y axis title. Zero latencies (a clock too coarse) are drawn at the axis floor
   * because a log axis cannot show zero.
   */
  LatencyChart addSeries(String name, Color colour, boolean dashed, double[] sizes,
      double[] latencies) {
    double[] shown = new double[latencies.length];
    for (int i = 0; i < shown.length; i++) {
      shown[i] = Math.max(latencies[i], SMALLEST_ON_LOG_AXIS);
    }
    XYSeries series = chart.addSeries(name, sizes, shown);
    series.setLineColor(colour);
    series.setMarkerColor(colour);
    series.setMarker(dashed ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
    if (dashed) {
      series.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
          new float[] {8f, 6f}, 0f));
    }
    return this;
  }

  /**
   * Adds a shaded band from {@code low[i]} to {@code high[i]} at {@code sizes[i]} (sizes
   * ascending), such as the p10-p90 range around a series' p50 line: drawn in a light tint of
   * {@code colour}, without a legend entry of its own.
   */
  LatencyChart addBand(String name, Color colour, double[] sizes, double[] low, double[] high) {
    int n = sizes.length;
    // XChart fills a polygon: along the top edge to the right, then back along the bottom.
    double[] x = new double[2 * n];
    double[] y = new double[2 * n];
    for (int i = 0; i < n; i++) {
      x[i] = sizes[i];
      y[i] = Math.max(high[i], SMALLEST_ON_LOG_AXIS);
      x[2 * n - 1 - i] = sizes[i];
      y[2 * n - 1 - i] = Math.max(low[i], SMALLEST_ON_LOG_AXIS);
    }
    XYSeries band = chart.addSeries(name, x, y);
    band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
    band.setFillColor(new Color(colour.getRed(), colour.getGreen(), colour.getBlue(), BAND_ALPHA));
    band.setLineColor(new Color(0, 0, 0, 0));
    band.setMarker(SeriesMarkers.NONE);
    band.setShowInLegend(false);
    return this;
  }

  /**
   * Returns why {@code file} cannot take a chart (its directory is missing), or null if it can:
   * checked before a long measurement rather than after it.
   */
  static String unwritable(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    return dir == null || Files.isDirectory(dir) ? null : "no such directory: " + dir;
  }

  /** Writes the chart as PNG to {@code file} (exactly that name: no extension is added). */
  void writePng(Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    } catch (RuntimeException | LinkageError e) {
      // Drawing text needs fonts: a JDK on a machine without any fails deep inside AWT.
      throw new IOException("could not draw the chart " + file + " (" + e
          + "); is a font such as DejaVu installed?", e);
    }
  }
}
