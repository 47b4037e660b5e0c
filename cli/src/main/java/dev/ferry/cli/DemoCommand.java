package dev.ferry.cli;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Route;
import dev.ferry.broker.Routes;
import dev.ferry.client.SoapClient;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.XopLimits;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry demo}: MTOM against base64, direct against brokered, in one command. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Start the testMtom echo service and a broker in front of it on loopback,"
        + " then send echo calls with blobs from 1 KiB to 12 MiB, as MTOM attachments and as"
        + " inline base64, directly and through the broker. Print p50/p90 latency and the bytes"
        + " on the wire for each, and write a PNG chart of latency by blob size.",
        "", "Each combination gets one checked call first (the echo compared byte for byte),"
            + " then --warmup untimed rounds, then --repetitions timed calls; a time runs from"
            + " the first byte sent to the last byte of the echoed blob read. With --url the"
            + " calls go to that echo service instead (Ferry's, CXF's MTOM sample, any testMtom"
            + " service) and the broker forwards to it."},
    footer = {"", "Examples:",
        "  ferry demo",
        "  ferry demo --sizes 1K,64K,1M --repetitions 20 --chart /tmp/mtom.png",
        "  ferry demo --url http://cxf-host:9000/mime-test --json > results.json",
        "", "Exit codes: 0 ok, 2 usage, 4 I/O or network error, 5 an echo came back wrong or"
            + " as a fault."})
final class DemoCommand implements Callable<Integer> {
  private static final String PATH = "/echo";

  @Spec CommandSpec spec;

  @Option(names = "--sizes", split = ",", paramLabel = "SIZE",
      converter = ByteSize.Converter.class, defaultValue = "1K,16K,256K,1M,4M,12M",
      description = "Blob sizes (B, K, M). Default: ${DEFAULT-VALUE}.")
  List<Integer> sizes;

  @Option(names = {"-n", "--repetitions"}, defaultValue = "5", paramLabel = "N",
      description = "Timed calls per size, encoding and route. Default: ${DEFAULT-VALUE}.")
  int repetitions;

  @Option(names = "--warmup", defaultValue = "1", paramLabel = "ROUNDS",
      description = "Untimed rounds of every combination before the timed ones."
          + " Default: ${DEFAULT-VALUE}.")
  int warmUpRounds;

  @Option(names = {"-u", "--url"}, paramLabel = "URL",
      description = "An external testMtom echo service to call instead of the embedded one.")
  URI url;

  @Option(names = "--chart", defaultValue = "ferry-demo.png", paramLabel = "FILE",
      description = "Where to write the PNG chart. Default: ${DEFAULT-VALUE}.")
  Path chart;

  @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
      description = "Give up on a call after this long without progress."
          + " Default: ${DEFAULT-VALUE}.")
  int timeoutSeconds;

  @Option(names = "--json", description = "Print JSON instead of the table.")
  boolean json;

  @Option(names = "--no-progress", description = "No progress on stderr.")
  boolean noProgress;

  @Override
  public Integer call() throws IOException {
    checkOptions();
    List<Integer> ascending = List.copyOf(new TreeSet<>(sizes));
    // One access-log line per call would bury the progress bar; --verbose keeps them.
    ServerLogging.configure(false, ServerLogging.verbose(spec));
    // Sized for the largest blob inline: base64 of 12 MiB is past the default 16 MiB envelope.
    SoapCodec codec = LimitOptions.codecWithRoot(Math.max(XopLimits.DEFAULT_MAX_ROOT_BYTES,
        LimitOptions.rootBytesForInline(ascending.get(ascending.size() - 1))));
    try (SoapServer server = url == null ? startEchoService(codec) : null) {
      URI direct = url != null ? url : server.uri(PATH);
      try (Broker broker = startBroker(codec, direct);
          SoapClient client = SoapClient.builder().codec(codec)
              .timeout(Duration.ofSeconds(timeoutSeconds)).build()) {
        URI brokered = broker.uri(PATH);
        List<DemoMeasurement.Row> rows = measure(client, codec, direct, brokered, ascending);
        writeChart(rows, direct);
        report(rows, direct, brokered);
      }
    }
    return 0;
  }

  private void checkOptions() {
    if (repetitions < 1 || repetitions > 10_000) {
      throw new ParameterException(spec.commandLine(),
          "--repetitions must be 1 to 10000: " + repetitions);
    }
    String chartProblem = LatencyChart.unwritable(chart);
    if (chartProblem != null) {
      throw new ParameterException(spec.commandLine(), "--chart: " + chartProblem);
    }
    if (warmUpRounds < 0 || warmUpRounds > 1000) {
      throw new ParameterException(spec.commandLine(),
          "--warmup must be 0 to 1000: " + warmUpRounds);
    }
    if (timeoutSeconds <= 0) {
      throw new ParameterException(spec.commandLine(), "--timeout must be positive");
    }
    if (url != null && (url.getScheme() == null || !url.getScheme().matches("https?"))) {
      throw new ParameterException(spec.commandLine(), "--url must be http:// or https://: "
          + url);
    }
  }

  private static SoapServer startEchoService(SoapCodec codec) throws IOException {
    return SoapServer.builder().host("127.0.0.1").port(0).codec(codec)
        .endpoint(PATH, EchoService.dispatcher()).build().start();
  }

  private Broker startBroker(SoapCodec codec, URI backend) throws IOException {
    Routes routes = Routes.of(List.of(new Route(PATH, null, backend, null)));
    return Broker.builder().host("127.0.0.1").port(0).codec(codec).routes(routes).build()
        .start();
  }

  private List<DemoMeasurement.Row> measure(SoapClient client, SoapCodec codec, URI direct,
      URI brokered, List<Integer> ascending) throws IOException {
    DemoMeasurement demo = new DemoMeasurement(client, codec, direct, brokered, ascending);
    try (ProgressBar progress = new ProgressBar(spec.commandLine().getErr(),
        ProgressBar.modeFor(noProgress), "demo", demo.calls(warmUpRounds, repetitions))) {
      return demo.run(warmUpRounds, repetitions, progress);
    }
  }

  private void writeChart(List<DemoMeasurement.Row> rows, URI direct) throws IOException {
    String where = url == null ? "loopback" : direct.getHost();
    LatencyChart c = new LatencyChart("testMtom echo over HTTP (" + where + "), p50 of "
        + repetitions + " calls", "latency, ms");
    for (boolean mtom : new boolean[] {true, false}) {
      for (boolean brokered : new boolean[] {false, true}) {
        List<DemoMeasurement.Row> series = select(rows, mtom, brokered);
        double[] x = new double[series.size()];
        double[] y = new double[series.size()];
        for (int i = 0; i < x.length; i++) {
          x[i] = series.get(i).cell().blobBytes();
          y[i] = series.get(i).latency().p50Millis();
        }
        DemoMeasurement.Cell first = series.get(0).cell();
        c.addSeries(first.encoding() + ", " + first.route(),
            mtom ? LatencyChart.MTOM_COLOUR : LatencyChart.BASE64_COLOUR, brokered, x, y);
      }
    }
    c.writePng(chart);
  }

  private static List<DemoMeasurement.Row> select(List<DemoMeasurement.Row> rows,
      boolean mtom, boolean brokered) {
    List<DemoMeasurement.Row> selected = new ArrayList<>();
    for (DemoMeasurement.Row r : rows) {
      if (r.cell().mtom() == mtom && r.cell().brokered() == brokered) {
        selected.add(r);
      }
    }
    return selected;
  }

  private void report(List<DemoMeasurement.Row> rows, URI direct, URI brokered) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(json(rows, direct, brokered));
      return;
    }
    out.println("echo service " + direct + (url == null ? " (embedded)" : ""));
    out.println("broker       " + brokered + " -> " + direct);
    out.println(repetitions + " timed calls per row and encoding; latency in ms, from the"
        + " first byte sent to the last echoed byte read;");
    out.println("wire: the request's bytes (the echo is the same size within a few bytes)");
    out.println();
    table(rows).print(out);
    out.println();
    out.println("Chart: " + chart.toAbsolutePath());
  }

  private static ConsoleTable table(List<DemoMeasurement.Row> rows) {
    ConsoleTable t = new ConsoleTable().column("blob", ConsoleTable.Align.RIGHT)
        .column("route", ConsoleTable.Align.LEFT)
        .column("MTOM p50", ConsoleTable.Align.RIGHT).column("MTOM p90", ConsoleTable.Align.RIGHT)
        .column("base64 p50", ConsoleTable.Align.RIGHT)
        .column("base64 p90", ConsoleTable.Align.RIGHT)
        .column("base64/MTOM", ConsoleTable.Align.RIGHT)
        .column("MTOM wire B", ConsoleTable.Align.RIGHT)
        .column("base64 wire B", ConsoleTable.Align.RIGHT);
    for (DemoMeasurement.Row m : rows) {
      if (!m.cell().mtom()) {
        continue;
      }
      DemoMeasurement.Row b = counterpart(rows, m);
      t.row(ByteSize.format(m.cell().blobBytes()), m.cell().route(),
          millis(m.latency().p50Millis()), millis(m.latency().p90Millis()),
          millis(b.latency().p50Millis()), millis(b.latency().p90Millis()),
          String.format(Locale.ROOT, "%.2f", b.latency().p50Millis()
              / m.latency().p50Millis()),
          Long.toString(m.requestBytes()), Long.toString(b.requestBytes()));
    }
    return t;
  }

  /** The base64 row of the same size and route as an MTOM row. */
  private static DemoMeasurement.Row counterpart(List<DemoMeasurement.Row> rows,
      DemoMeasurement.Row mtom) {
    for (DemoMeasurement.Row r : rows) {
      if (!r.cell().mtom() && r.cell().blobBytes() == mtom.cell().blobBytes()
          && r.cell().brokered() == mtom.cell().brokered()) {
        return r;
      }
    }
    throw new IllegalStateException("no base64 row for " + mtom.cell().label());
  }

  private static String millis(double ms) {
    return String.format(Locale.ROOT, ms < 10 ? "%.2f" : "%.1f", ms);
  }

  private String json(List<DemoMeasurement.Row> rows, URI direct, URI brokered) {
    StringBuilder s = new StringBuilder("{\"echoService\":").append(Json.str(direct.toString()))
        .append(",\"embedded\":").append(url == null)
        .append(",\"broker\":").append(Json.str(brokered.toString()))
        .append(",\"repetitions\":").append(repetitions).append(",\"results\":[");
    for (int i = 0; i < rows.size(); i++) {
      DemoMeasurement.Row r = rows.get(i);
      s.append(i == 0 ? "" : ",").append("{\"blobBytes\":").append(r.cell().blobBytes())
          .append(",\"encoding\":").append(Json.str(r.cell().encoding()))
          .append(",\"route\":").append(Json.str(r.cell().route()))
          .append(",\"p50Millis\":").append(Json.num(r.latency().p50Millis()))
          .append(",\"p90Millis\":").append(Json.num(r.latency().p90Millis()))
          .append(",\"maxMillis\":").append(Json.num(r.latency().maxMillis()))
          .append(",\"requestBytes\":").append(r.requestBytes()).append('}');
    }
    return s.append("],\"chart\":").append(Json.str(chart.toAbsolutePath().toString()))
        .append('}').toString();
  }
}
