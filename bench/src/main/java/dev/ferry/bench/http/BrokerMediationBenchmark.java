package dev.ferry.bench.http;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.cxf.Bus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the broker's mediation costs over its plain pass-through: the echo round trip (inline
 * base64 in the Body, no MTOM, so that the Body holds the bytes the routes read) through a route
 * that forwards as it is ({@code plain}), one chosen by an HTTP header's regular expression
 * ({@code header}), one chosen by a Body path ({@code body}: {@code //t:name = 'bench'}, else a
 * fault), one with limits it never reaches ({@code limits}: the route's in-flight count and rate
 * and the caller's rate taken and given back on every call), and one that runs an identity XSLT
 * on the payload ({@code xslt}). Driven by Ferry's client (Content-Length) and CXF 4's JAX-WS
 * client (chunked past 4,000 bytes), one call at a time. Client, broker and Ferry's echo server
 * share the fork's JVM.
 *
 * <pre>
 * ./mvnw package -DskipTests
 * java -jar bench/target/benchmarks.jar BrokerMediationBenchmark -rf json
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xmx1g"})
@State(Scope.Benchmark)
public class BrokerMediationBenchmark {
  private static final String IDENTITY = "<xsl:stylesheet version=\"1.0\""
      + " xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"@*|node()\">"
      + "<xsl:copy><xsl:apply-templates select=\"@*|node()\"/></xsl:copy></xsl:template>"
      + "</xsl:stylesheet>";

  @Param({"plain", "header", "body", "limits", "xslt"})
  public String route;

  @Param({"ferry", "cxf"})
  public String client;

  @Param({"1024", "32768"})
  public int size;

  private SoapServer backend;
  private Broker broker;
  private Path dir;
  private SoapCodec codec;
  private SoapClient ferry;
  private Bus bus;
  private TestMtomPort cxf;
  private URI uri;
  private ByteString blob;
  private byte[] bytes;

  @Setup(Level.Trial)
  public void start() throws Exception {
    AccessLog.quiet();
    codec = SoapCodec.create();
    backend = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    dir = Files.createTempDirectory("ferry-bench-mediation");
    Files.writeString(dir.resolve("identity.xsl"), IDENTITY);
    broker = Broker.builder().routes(Routes.load(Files.writeString(dir.resolve("routes.yaml"),
        "routes:\n  - path: /echo\n    to: " + backend.uri("/echo") + "\n" + conditions(route)
            + "  - path: /echo\n    fault: {code: Sender, reason: no route}\n")))
        .build().start();
    uri = broker.uri("/echo");
    blob = BrokerOverheadBenchmark.blob(size);
    bytes = blob.toByteArray();
    if (client.equals("cxf")) {
      bus = CxfPeer.newBus();
      cxf = CxfPeer.client(bus, uri, false);
    } else {
      ferry = SoapClient.create();
    }
    try {
      roundTrip();
    } catch (Exception e) {
      stop();
      throw e;
    }
  }

  /** The route's keys past its path and backend. */
  private static String conditions(String route) {
    return switch (route) {
      case "plain" -> "";
      case "header" -> "    when:\n      header: {name: Content-Type, matches: \"text/xml.*\"}\n";
      case "body" -> "    namespaces: {t: \"" + EchoService.NAMESPACE + "\"}\n"
          + "    when:\n      body: \"//t:name = 'bench'\"\n";
      case "limits" -> "    limits: {inFlight: 100000, rate: 1000000/s,"
          + " perCaller: {inFlight: 100000, rate: 1000000/s}}\n";
      case "xslt" -> "    xslt: {request: identity.xsl}\n";
      default -> throw new IllegalArgumentException(route);
    };
  }

  @Benchmark
  public long roundTrip() throws Exception {
    if (cxf != null) {
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(bytes)));
      cxf.testMtom(new Holder<>("bench"), data);
      return check(PortEcho.drain(data.value));
    }
    try (SoapResponse r = ferry.call(uri, EchoService.request(codec, SoapVersion.SOAP_11,
        MtomPolicy.NEVER, "bench", blob), EchoService.SOAP_ACTION)) {
      return check(EchoService.readEcho(r.message(), OutputStream.nullOutputStream()).length());
    }
  }

  private long check(long n) {
    if (n != size) {
      throw new IllegalStateException("the echo through " + route + " is not whole: " + n);
    }
    return n;
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException {
    if (bus != null) {
      bus.shutdown(true);
    }
    if (ferry != null) {
      ferry.close();
    }
    broker.close();
    backend.close();
    Files.deleteIfExists(dir.resolve("routes.yaml"));
    Files.deleteIfExists(dir.resolve("identity.xsl"));
    Files.deleteIfExists(dir);
  }
}
