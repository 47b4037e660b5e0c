package dev.ferry.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code ferry demo} shows of a measurement: a table with one line per blob size and route
 * (p50, p90 and calls for MTOM and base64, and the bytes on the wire), under it in words where
 * MTOM starts to pay and what the broker adds, the same as JSON, and a chart of the p50s with
 * their p10-p90 bands.
 */
final class DemoReport {
  private static final int WIDTH = 100;
  private static final char UNBROKEN_SPACE = '\u00a0';

  private final DemoMeasurement.Result result;
  private final Map<DemoMeasurement.Cell, Long> requestBytes;
  private final URI direct;
  private final URI brokered;
  private final boolean embedded;
  private final int repetitions;
  private final Duration duration;
  private final Path chart;

  DemoReport(DemoMeasurement.Result result, Map<DemoMeasurement.Cell, Long> requestBytes,
      URI direct, URI brokered, boolean embedded, int repetitions, Duration duration,
      Path chart) {
    this.result = result;
    this.requestBytes = requestBytes;
    this.direct = direct;
    this.brokered = brokered;
    this.embedded = embedded;
    this.repetitions = repetitions;
    this.duration = duration;
    this.chart = chart;
  }

  void print(PrintWriter out) {
    out.println("echo service " + direct + (embedded ? " (embedded)" : ""));
    out.println("broker       " + brokered + " -> " + direct);
    wrap(out, "", method());
    out.println();
    table().print(out);
    out.println();
    wrap(out, "  ", "MTOM against base64 (p50), direct: " + crossover(false).describe() + ";"
        + " brokered: " + crossover(true).describe() + ".");
    wrap(out, "  ", "The broker adds (p50 brokered minus direct, +- its 95% confidence where it"
        + " shows): with MTOM " + added(true) + "; with base64 " + added(false) + ".");
    wrap(out, "  ", precision());
    out.println();
    out.println("Chart: " + chart.toAbsolutePath());
    out.flush();
  }

  private String method() {
    String warmUp = String.format(Locale.ROOT, "Warm-up: %d rounds in %.1f s, %s.",
        result.warmUpRounds(), result.warmUpNanos() / 1e9, result.settled()
            ? "until the timings settled"
            : "and the timings had not settled (the small sizes' figures may be high; a longer"
                + " --duration warms up longer)");
    return warmUp + String.format(Locale.ROOT, " Timed: %d rounds in %.1f s, each row's calls"
        + " in every round. Latency in ms, from the first byte sent to the last echoed byte"
        + " read; calls: the row's timed calls; wire B: the request's bytes (the echo is the"
        + " same size within a few bytes).", result.timedRounds(), result.timedNanos() / 1e9);
  }

  ConsoleTable table() {
    ConsoleTable t = new ConsoleTable().column("blob", ConsoleTable.Align.RIGHT)
        .column("route", ConsoleTable.Align.LEFT)
        .column("MTOM p50", ConsoleTable.Align.RIGHT).column("p90", ConsoleTable.Align.RIGHT)
        .column("calls", ConsoleTable.Align.RIGHT)
        .column("base64 p50", ConsoleTable.Align.RIGHT).column("p90", ConsoleTable.Align.RIGHT)
        .column("calls", ConsoleTable.Align.RIGHT)
        .column("base64/MTOM", ConsoleTable.Align.RIGHT)
        .column("MTOM wire B", ConsoleTable.Align.RIGHT)
        .column("base64 wire B", ConsoleTable.Align.RIGHT);
    for (DemoMeasurement.Row m : result.rows()) {
      if (!m.cell().mtom()) {
        continue;
      }
      DemoMeasurement.Row b = row(m.cell().blobBytes(), false, m.cell().brokered());
      t.row(ByteSize.format(m.cell().blobBytes()), m.cell().route(),
          millis(m.latency().p50Millis()), millis(m.latency().p90Millis()),
          Integer.toString(m.latency().count()),
          millis(b.latency().p50Millis()), millis(b.latency().p90Millis()),
          Integer.toString(b.latency().count()),
          String.format(Locale.ROOT, "%.2f", b.latency().p50Millis() / m.latency().p50Millis()),
          Long.toString(requestBytes.get(m.cell())), Long.toString(requestBytes.get(b.cell())));
    }
    return t;
  }

  /** Where MTOM's p50 drops below base64's, on one route. */
  Crossover crossover(boolean viaBroker) {
    List<Integer> sizes = sizes();
    int[] bytes = new int[sizes.size()];
    double[] base64 = new double[bytes.length];
    double[] mtom = new double[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = sizes.get(i);
      base64[i] = row(bytes[i], false, viaBroker).latency().p50Nanos();
      mtom[i] = row(bytes[i], true, viaBroker).latency().p50Nanos();
    }
    return Crossover.find(bytes, base64, mtom);
  }

  /** The broker's added latency at each size, for one encoding, in words. */
  private String added(boolean mtom) {
    List<String> parts = new ArrayList<>();
    for (int size : sizes()) {
      LatencyStats d = row(size, mtom, false).latency();
      LatencyStats b = row(size, mtom, true).latency();
      String error = millis(Math.hypot(d.p50ErrorMillis(), b.p50ErrorMillis()));
      parts.add(unbroken(ByteSize.format(size) + " " + millis(b.p50Millis() - d.p50Millis())
          + " ms" + (error.matches("[0.]+") ? "" : " +-" + error)));
    }
    return String.join(", ", parts);
  }

  private String precision() {
    List<String> loose = new ArrayList<>();
    for (DemoMeasurement.Row r : result.rows()) {
      double error = r.latency().p50RelativeError();
      if (error > DemoMeasurement.TARGET_ERROR) {
        loose.add(String.format(Locale.ROOT, "%s +-%.0f%%", r.cell().label(), error * 100));
      }
    }
    String target = DemoMeasurement.TARGET_ERROR_PERCENT + "% (95% confidence)";
    return loose.isEmpty() ? "Every p50 is known within " + target + "."
        : "Known less well than " + target + ": " + String.join(", ", loose)
            + " (a longer --duration gives more calls).";
  }

  void writeChart(String where) throws IOException {
    LatencyChart c = new LatencyChart("testMtom echo over HTTP (" + where + "): p50, band"
        + " p10-p90", "latency, ms");
    for (boolean mtom : new boolean[] {true, false}) {
      for (boolean viaBroker : new boolean[] {false, true}) {
        List<Integer> sizes = sizes();
        double[] x = new double[sizes.size()];
        double[] p10 = new double[x.length];
        double[] p50 = new double[x.length];
        double[] p90 = new double[x.length];
        for (int i = 0; i < x.length; i++) {
          LatencyStats s = row(sizes.get(i), mtom, viaBroker).latency();
          x[i] = sizes.get(i);
          p10[i] = s.p10Millis();
          p50[i] = s.p50Millis();
          p90[i] = s.p90Millis();
        }
        DemoMeasurement.Cell first = row(sizes.get(0), mtom, viaBroker).cell();
        String name = first.encoding() + ", " + first.route();
        java.awt.Color colour = mtom ? LatencyChart.MTOM_COLOUR : LatencyChart.BASE64_COLOUR;
        c.addBand(name + " p10-p90", colour, x, p10, p90);
        c.addSeries(name, colour, viaBroker, x, p50);
      }
    }
    c.writePng(chart);
  }

  String json() {
    StringBuilder s = new StringBuilder("{\"echoService\":").append(Json.str(direct.toString()))
        .append(",\"embedded\":").append(embedded)
        .append(",\"broker\":").append(Json.str(brokered.toString()))
        .append(",\"repetitions\":").append(repetitions)
        .append(",\"durationSeconds\":").append(Json.num(duration.toNanos() / 1e9))
        .append(",\"warmUp\":{\"rounds\":").append(result.warmUpRounds())
        .append(",\"seconds\":").append(Json.num(result.warmUpNanos() / 1e9))
        .append(",\"settled\":").append(result.settled())
        .append("},\"timed\":{\"rounds\":").append(result.timedRounds())
        .append(",\"seconds\":").append(Json.num(result.timedNanos() / 1e9))
        .append("},\"results\":[");
    for (int i = 0; i < result.rows().size(); i++) {
      DemoMeasurement.Row r = result.rows().get(i);
      LatencyStats l = r.latency();
      s.append(i == 0 ? "" : ",").append("{\"blobBytes\":").append(r.cell().blobBytes())
          .append(",\"encoding\":").append(Json.str(r.cell().encoding()))
          .append(",\"route\":").append(Json.str(r.cell().route()))
          .append(",\"calls\":").append(l.count())
          .append(",\"p10Millis\":").append(Json.num(l.p10Millis()))
          .append(",\"p50Millis\":").append(Json.num(l.p50Millis()))
          .append(",\"p90Millis\":").append(Json.num(l.p90Millis()))
          .append(",\"maxMillis\":").append(Json.num(l.maxMillis()))
          .append(",\"p50LowMillis\":").append(Json.num(l.p50LowNanos() / 1e6))
          .append(",\"p50HighMillis\":").append(Json.num(l.p50HighNanos() / 1e6))
          .append(",\"requestBytes\":").append(requestBytes.get(r.cell())).append('}');
    }
    return s.append("],\"crossover\":{\"direct\":").append(crossover(false).toJson())
        .append(",\"brokered\":").append(crossover(true).toJson())
        .append("},\"chart\":").append(Json.str(chart.toAbsolutePath().toString()))
        .append('}').toString();
  }

  private List<Integer> sizes() {
    List<Integer> sizes = new ArrayList<>();
    for (DemoMeasurement.Row r : result.rows()) {
      if (sizes.isEmpty() || sizes.get(sizes.size() - 1) != r.cell().blobBytes()) {
        sizes.add(r.cell().blobBytes());
      }
    }
    return sizes;
  }

  private DemoMeasurement.Row row(int size, boolean mtom, boolean viaBroker) {
    for (DemoMeasurement.Row r : result.rows()) {
      DemoMeasurement.Cell c = r.cell();
      if (c.blobBytes() == size && c.mtom() == mtom && c.brokered() == viaBroker) {
        return r;
      }
    }
    throw new IllegalStateException("no row for " + ByteSize.format(size) + " " + mtom + " "
        + viaBroker);
  }

  private static String millis(double ms) {
    return String.format(Locale.ROOT, Math.abs(ms) < 10 ? "%.2f" : "%.1f", ms);
  }

  /** {@code phrase} with spaces that {@link #wrap} does not break a line at. */
  private static String unbroken(String phrase) {
    return phrase.replace(' ', UNBROKEN_SPACE);
  }

  /**
   * Prints {@code text} in lines of at most {@value #WIDTH} columns (unless a word is longer),
   * the first as it is and the others indented.
   */
  private static void wrap(PrintWriter out, String indent, String text) {
    StringBuilder line = new StringBuilder();
    String prefix = "";
    for (String word : text.split(" ")) {
      if (line.length() > prefix.length() && line.length() + 1 + word.length() > WIDTH) {
        out.println(line.toString().replace(UNBROKEN_SPACE, ' '));
        line.setLength(0);
        prefix = indent;
      }
      line.append(line.isEmpty() ? prefix : " ").append(word);
    }
    out.println(line.toString().replace(UNBROKEN_SPACE, ' '));
  }
}
