package dev.ferry.cli;

import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import javax.xml.stream.XMLStreamException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry bench threshold}: the MTOM crossover on this machine, and the policy for it. */
@Command(name = "threshold", mixinStandardHelpOptions = true,
    description = {"Measure, in this process, what one testMtom message costs to write and read"
        + " back with its blob inline as base64 and as an MTOM attachment, for each of the"
        + " --sizes; find the size from which MTOM is cheaper and print the"
        + " MtomPolicy.threshold(N) to configure.",
        "", "This is a quick estimate (a few seconds, one JVM, no network, on a machine that may"
            + " be busy). The rigorous measurement is the JMH ThresholdBenchmark in the bench"
            + " module (see docs/performance.md)."},
    footer = {"", "Examples:",
        "  ferry bench threshold",
        "  ferry bench threshold --seconds 20 --chart threshold.png",
        "  ferry bench threshold --sizes 1K,2K,3K,4K --json"})
final class BenchThreshold implements Callable<Integer> {
  private static final Duration QUICK = Duration.ofMillis(500);
  private static final double MAX_SECONDS = 600;

  @Spec CommandSpec spec;

  @Option(names = "--sizes", split = ",", paramLabel = "SIZE",
      converter = ByteSize.Converter.class,
      defaultValue = "256,512,1K,2K,4K,8K,16K,32K,64K",
      description = "Blob sizes to measure (B, K, M). Default: ${DEFAULT-VALUE}.")
  List<Integer> sizes;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "4",
      description = "Time to spend in all, warm-up included. Default: ${DEFAULT-VALUE}.")
  double seconds;

  @Option(names = "--quick", description = "Spend half a second (a smoke test, not a result).")
  boolean quick;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  @Option(names = "--chart", paramLabel = "FILE",
      description = "Also write a PNG chart of latency by blob size to FILE.")
  Path chart;

  @Option(names = "--no-progress", description = "No progress on stderr.")
  boolean noProgress;

  @Override
  public Integer call() throws IOException, XMLStreamException {
    checkChart();
    Duration budget = budget();
    List<Integer> ascending = List.copyOf(new TreeSet<>(sizes));
    List<ThresholdMeasurement.Row> rows;
    PrintWriter err = spec.commandLine().getErr();
    try (ProgressBar progress = new ProgressBar(err, ProgressBar.modeFor(noProgress),
        "measuring", ThresholdMeasurement.progressSteps())) {
      rows = new ThresholdMeasurement(ascending).run(budget, progress);
    }
    Crossover time = timeCrossover(rows);
    Crossover wire = wireCrossover(rows);
    if (chart != null) {
      writeChart(rows);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(json(rows, time, wire));
    } else {
      printReport(out, rows, time, wire);
    }
    return 0;
  }

  private void checkChart() {
    String problem = chart == null ? null : LatencyChart.unwritable(chart);
    if (problem != null) {
      throw new ParameterException(spec.commandLine(), "--chart: " + problem);
    }
  }

  private Duration budget() {
    if (quick) {
      return QUICK;
    }
    if (!(seconds > 0 && seconds <= MAX_SECONDS)) {
      throw new ParameterException(spec.commandLine(),
          "--seconds must be above 0 and at most " + (int) MAX_SECONDS + ": " + seconds);
    }
    return Duration.ofNanos((long) (seconds * 1e9));
  }

  static Crossover timeCrossover(List<ThresholdMeasurement.Row> rows) {
    return crossover(rows, r -> r.base64().p50Nanos(), r -> r.mtom().p50Nanos());
  }

  static Crossover wireCrossover(List<ThresholdMeasurement.Row> rows) {
    return crossover(rows, ThresholdMeasurement.Row::base64WireBytes,
        ThresholdMeasurement.Row::mtomWireBytes);
  }

  /** Finds where {@code mtom} of the rows drops below {@code base64}. */
  private static Crossover crossover(List<ThresholdMeasurement.Row> rows,
      ToDoubleFunction<ThresholdMeasurement.Row> base64,
      ToDoubleFunction<ThresholdMeasurement.Row> mtom) {
    int n = rows.size();
    int[] bytes = new int[n];
    double[] b = new double[n];
    double[] m = new double[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = rows.get(i).blobBytes();
      b[i] = base64.applyAsDouble(rows.get(i));
      m[i] = mtom.applyAsDouble(rows.get(i));
    }
    return Crossover.find(bytes, b, m);
  }

  private void writeChart(List<ThresholdMeasurement.Row> rows) throws IOException {
    int n = rows.size();
    double[] bytes = new double[n];
    double[] base64 = new double[n];
    double[] mtom = new double[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = rows.get(i).blobBytes();
      base64[i] = rows.get(i).base64().p50Micros();
      mtom[i] = rows.get(i).mtom().p50Micros();
    }
    new LatencyChart("testMtom write + read in process (p50), " + machine(),
        "latency per message, µs")
        .addSeries("base64 inline", LatencyChart.BASE64_COLOUR, false, bytes, base64)
        .addSeries("MTOM attachment", LatencyChart.MTOM_COLOUR, false, bytes, mtom)
        .writePng(chart);
  }

  private static String machine() {
    return Runtime.getRuntime().availableProcessors() + " cores, Java "
        + Runtime.version().feature();
  }

  private void printReport(PrintWriter out, List<ThresholdMeasurement.Row> rows,
      Crossover time, Crossover wire) {
    ConsoleTable table = new ConsoleTable()
        .column("blob", ConsoleTable.Align.RIGHT)
        .column("base64 p50 µs", ConsoleTable.Align.RIGHT)
        .column("MTOM p50 µs", ConsoleTable.Align.RIGHT)
        .column("MTOM/base64", ConsoleTable.Align.RIGHT)
        .column("base64 p90 µs", ConsoleTable.Align.RIGHT)
        .column("MTOM p90 µs", ConsoleTable.Align.RIGHT)
        .column("base64 wire B", ConsoleTable.Align.RIGHT)
        .column("MTOM wire B", ConsoleTable.Align.RIGHT);
    for (ThresholdMeasurement.Row r : rows) {
      table.row(ByteSize.format(r.blobBytes()), micros(r.base64().p50Micros()),
          micros(r.mtom().p50Micros()),
          String.format(Locale.ROOT, "%.2f", r.mtom().p50Micros() / r.base64().p50Micros()),
          micros(r.base64().p90Micros()), micros(r.mtom().p90Micros()),
          Integer.toString(r.base64WireBytes()), Integer.toString(r.mtomWireBytes()));
    }
    table.print(out);
    out.println();
    out.println("time: " + time.describe());
    out.println("wire: " + wire.describe());
    out.println();
    out.println(recommendation(time));
    out.println("(Ferry's default: MtomPolicy.DEFAULT = threshold("
        + MtomPolicy.DEFAULT_THRESHOLD_BYTES + ").)");
    out.println("A quick in-process estimate from " + rows.get(0).base64().count()
        + " calls per size and encoding;");
    out.println("the JMH ThresholdBenchmark in bench/ is the rigorous measurement.");
    if (chart != null) {
      out.println("Chart: " + chart.toAbsolutePath());
    }
  }

  private static String micros(double value) {
    return String.format(Locale.ROOT, "%.1f", value);
  }

  static String recommendation(Crossover time) {
    return switch (time.kind()) {
      case BETWEEN_SIZES, MTOM_AT_ALL_SIZES ->
          "Configure: MtomPolicy.threshold(" + time.thresholdBytes() + ")";
      case BASE64_AT_LARGEST_SIZE -> "No threshold found: measure larger sizes (--sizes), or"
          + " keep base64 (MtomPolicy.NEVER) for blobs this small.";
    };
  }

  private String json(List<ThresholdMeasurement.Row> rows, Crossover time, Crossover wire) {
    StringBuilder s = new StringBuilder("{\"sizes\":[");
    for (int i = 0; i < rows.size(); i++) {
      ThresholdMeasurement.Row r = rows.get(i);
      s.append(i == 0 ? "" : ",").append("{\"blobBytes\":").append(r.blobBytes())
          .append(",\"base64\":").append(json(r.base64(), r.base64WireBytes()))
          .append(",\"mtom\":").append(json(r.mtom(), r.mtomWireBytes())).append('}');
    }
    s.append("],\"time\":").append(time.toJson()).append(",\"wire\":").append(wire.toJson());
    s.append(",\"thresholdBytes\":").append(time.kind() == Crossover.Kind.BASE64_AT_LARGEST_SIZE
        ? "null" : Integer.toString(time.thresholdBytes()));
    s.append(",\"defaultThresholdBytes\":").append(MtomPolicy.DEFAULT_THRESHOLD_BYTES);
    s.append(",\"chart\":").append(Json.str(chart == null ? null
        : chart.toAbsolutePath().toString()));
    return s.append('}').toString();
  }

  private static String json(LatencyStats stats, int wireBytes) {
    return "{\"calls\":" + stats.count() + ",\"p50Micros\":" + Json.num(stats.p50Micros())
        + ",\"p90Micros\":" + Json.num(stats.p90Micros()) + ",\"wireBytes\":" + wireBytes + "}";
  }
}
