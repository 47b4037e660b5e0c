package dev.ferry.bench.ldap;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The LDAP guide's chart: search time (p50, solid) and server CPU per search (dashed) by the
 * returned entry's size, one colour per server, the size axis logarithmic (1 to 64 KB).
 */
final class SearchChart {
  private static final Map<String, Color> COLOURS = Map.of(
      "ferry", new Color(0x1f, 0x77, 0xb4), "slapd", new Color(0xd6, 0x27, 0x28),
      "unboundid", new Color(0x2c, 0xa0, 0x2c), "floor", Color.GRAY);

  private SearchChart() {}

  static void draw(List<LdapSearchProbe.Row> rows, Path file) throws IOException {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    XYChart chart = new XYChartBuilder().width(1000).height(640)
        .title("Base search for a whole entry, one client, loopback")
        .xAxisTitle("returned entry, KB (log scale)").yAxisTitle("microseconds").build();
    chart.getStyler().setXAxisLogarithmic(true).setXAxisDecimalPattern("#,##0")
        .setLegendPosition(Styler.LegendPosition.InsideNW).setChartBackgroundColor(Color.WHITE)
        .setMarkerSize(7);
    for (String server : rows.stream().map(LdapSearchProbe.Row::server).distinct().toList()) {
      List<LdapSearchProbe.Row> of = rows.stream().filter(r -> r.server().equals(server))
          .toList();
      double[] kb = of.stream().mapToDouble(r -> r.entryBytes() / 1024.0).toArray();
      add(chart, server + " p50", server, false, kb,
          of.stream().mapToDouble(LdapSearchProbe.Row::p50Micros).toArray());
      add(chart, server + " server CPU", server, true, kb,
          of.stream().mapToDouble(LdapSearchProbe.Row::cpuMicros).toArray());
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
  }

  private static void add(XYChart chart, String name, String server, boolean dashed,
      double[] x, double[] y) {
    Color c = COLOURS.getOrDefault(server, Color.BLACK);
    XYSeries s = chart.addSeries(name, x, y);
    s.setLineColor(c);
    s.setMarkerColor(c);
    s.setMarker(dashed ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
    if (dashed) {
      s.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
          new float[] {8f, 6f}, 0f));
    }
  }
}
