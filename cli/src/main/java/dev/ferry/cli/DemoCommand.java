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
import java.util.List;
import java.util.Map;
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
        + " then send echo calls with blobs of the --sizes, as MTOM attachments and as inline"
        + " base64, directly and through the broker. Print p50/p90 latency, the number of"
        + " calls and the bytes on the wire for each, where MTOM starts to pay and what the"
        + " broker adds, and write a PNG chart of latency by blob size.",
        "", "Each combination gets one checked call first (the echo compared byte for byte)."
            + " Then rounds go over all combinations, each taking a slice of time for"
            + " back-to-back calls: untimed until the timings settle (the JVM compiles the"
            + " code paths as they run), then timed until every p50 is known within "
            + DemoMeasurement.TARGET_ERROR_PERCENT + "% or --duration is spent. A time runs"
            + " from the first byte sent to the last byte of the echoed blob read. With --url"
            + " the calls go to that echo service instead (Ferry's, CXF's MTOM sample, any"
            + " testMtom service) and the broker forwards to it."},
    footer = {"", "Examples:",
        "  ferry demo",
        "  ferry demo --duration 3m --repetitions 50",
        "  ferry demo --sizes 1K,64K,1M --chart /tmp/mtom.png",
        "  ferry demo --url http://cxf-host:9000/mime-test --json > results.json",
        "", "Exit codes: 0 ok, 2 usage, 4 I/O or network error, 5 an echo came back wrong or"
            + " as a fault."})
final class DemoCommand implements Callable<Integer> {
  private static final String PATH = "/echo";
  /** Each combination's time in a round (twice this while its p50 is not yet known well). */
  private static final Duration SLICE = Duration.ofMillis(40);

  @Spec CommandSpec spec;

  @Option(names = "--sizes", split = ",", paramLabel = "SIZE",
      converter = ByteSize.Converter.class, defaultValue = "1K,4K,16K,64K,256K,1M,4M,12M",
      description = "Blob sizes (B, K, M). Default: ${DEFAULT-VALUE}.")
  List<Integer> sizes;

  @Option(names = {"-n", "--repetitions"}, defaultValue = "10", paramLabel = "N",
      description = "Timed calls per size, encoding and route at least, however long they"
          + " take. Default: ${DEFAULT-VALUE}.")
  int repetitions;

  @Option(names = {"-d", "--duration"}, defaultValue = "60s", paramLabel = "DURATION",
      converter = DurationText.Converter.class,
      description = "Time for warm-up and timed calls together, such as 60s or 3m (the timed"
          + " calls stop earlier once every p50 is known well). Default: ${DEFAULT-VALUE}.")
  Duration duration;

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
    // Sized for the largest blob inline: base64 of 12 MiB is 16 MiB of envelope.
    SoapCodec codec = LimitOptions.codecWithRoot(Math.max(XopLimits.DEFAULT_MAX_ROOT_BYTES,
        LimitOptions.rootBytesForInline(ascending.get(ascending.size() - 1))));
    try (SoapServer server = url == null ? startEchoService(codec) : null) {
      URI direct = url != null ? url : server.uri(PATH);
      try (Broker broker = startBroker(codec, direct);
          SoapClient client = SoapClient.builder().codec(codec)
              .timeout(Duration.ofSeconds(timeoutSeconds)).build()) {
        URI brokered = broker.uri(PATH);
        DemoEcho echo = new DemoEcho(client, codec, direct, brokered);
        Map<DemoMeasurement.Cell, Long> wire = echo.check(DemoMeasurement.cells(ascending));
        DemoMeasurement.Result result = measure(echo, ascending);
        DemoReport report = new DemoReport(result, wire, direct, brokered, url == null,
            repetitions, duration, chart);
        report.writeChart(url == null ? "loopback" : direct.getHost());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
          out.println(report.json());
        } else {
          report.print(out);
        }
      }
    }
    return 0;
  }

  private void checkOptions() {
    if (repetitions < 1 || repetitions > 100_000) {
      throw new ParameterException(spec.commandLine(),
          "--repetitions must be 1 to 100000: " + repetitions);
    }
    String chartProblem = LatencyChart.unwritable(chart);
    if (chartProblem != null) {
      throw new ParameterException(spec.commandLine(), "--chart: " + chartProblem);
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

  private DemoMeasurement.Result measure(DemoEcho echo, List<Integer> ascending)
      throws IOException {
    DemoMeasurement.Plan plan = new DemoMeasurement.Plan(duration, repetitions, SLICE);
    try (ProgressBar progress = new ProgressBar(spec.commandLine().getErr(),
        ProgressBar.modeFor(noProgress), "demo", DemoMeasurement.progressSteps())) {
      return new DemoMeasurement(ascending, echo::call, System::nanoTime, Settling.jitMillis(),
          plan).run(progress);
    }
  }
}
