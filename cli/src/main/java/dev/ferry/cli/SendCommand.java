package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.sample.EchoService;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ferry send}: one testMtom echo call with a file or a generated blob. */
@Command(name = "send", mixinStandardHelpOptions = true,
    description = "Send a file, or a generated blob of --size bytes, to a testMtom echo service"
        + " (ferry serve, CXF's MTOM sample, any service of that contract) as an MTOM attachment"
        + " or inline base64, and summarise the reply: status, type, the echo checked byte for"
        + " byte (SHA-256), bytes on the wire and time.",
    footer = {"", "Examples:",
        "  ferry send --url http://127.0.0.1:8080/echo --size 4M",
        "  ferry send --url http://127.0.0.1:8080/echo photo.jpg --no-mtom --soap12",
        "  ferry send --url http://127.0.0.1:8080/echo --size 64K --json",
        "", "Exit codes: 0 echoed intact, 2 usage, 4 I/O or network error, 5 the service"
            + " answered with a fault, a non-SOAP reply or a different blob."})
final class SendCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"-u", "--url"}, required = true, paramLabel = "URL",
      description = "The echo service's address, such as http://127.0.0.1:8080/echo.")
  URI url;

  @Parameters(arity = "0..1", paramLabel = "FILE", description = "The file to send.")
  Path file;

  @Option(names = "--size", paramLabel = "SIZE", converter = ByteSize.Converter.class,
      description = "Send a generated (random) blob of this size instead of a file: 4K, 12M.")
  Integer size;

  @Option(names = "--mtom", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Send the blob as an MTOM attachment (default), or with --no-mtom inline as"
          + " base64.")
  boolean mtom;

  @Option(names = "--soap12", description = "SOAP 1.2 instead of 1.1.")
  boolean soap12;

  @Option(names = "--operation", defaultValue = "testMtom", paramLabel = "NAME",
      description = "The request's element in the contract's namespace: testMtom (Ferry's"
          + " echo), or testDataHandler or testByteArray (CXF's MTOM sample, as it ships)."
          + " Default: ${DEFAULT-VALUE}.")
  String operation;

  @Option(names = "--soap-action", paramLabel = "ACTION",
      description = "The SOAPAction to send. Default: the operation's in --wsdl, else \"\""
          + " (the echo contract's, as CXF's sample ships it).")
  String soapAction;

  @Option(names = "--wsdl", paramLabel = "FILE|URL",
      description = "Take the operation's SOAPAction from this WSDL, such as the service's"
          + " own (URL?wsdl).")
  String wsdl;

  @Option(names = "--name", defaultValue = "ferry send", paramLabel = "TEXT",
      description = "The name element to send (echoed back). Default: ${DEFAULT-VALUE}.")
  String name;

  @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
      description = "Give up after this long without progress. Default: ${DEFAULT-VALUE}.")
  int timeoutSeconds;

  @Option(names = "--json", description = "Print JSON instead of text.")
  boolean json;

  @Mixin LimitOptions limits;

  @Mixin ClientTlsOptions security;

  @Override
  public Integer call() throws IOException {
    checkOptions();
    ByteString generated = file == null ? generated(size) : null;
    long blobBytes = generated != null ? generated.size() : Files.size(file);
    byte[] sentDigest = generated != null ? digest(generated) : digest(file);
    // The echo of an inline blob comes back as large as it went: let the reply's envelope in.
    SoapCodec codec = limits.codec(mtom ? 0
        : LimitOptions.rootBytesForInline((int) Math.min(blobBytes, Integer.MAX_VALUE)));
    MessageDigest echoed = MimeInspect.sha256();
    EchoCall.Result result;
    dev.ferry.security.TlsSettings tls = security.settings(spec);
    SoapClient.Builder clientBuilder = SoapClient.builder().codec(codec)
        .timeout(Duration.ofSeconds(timeoutSeconds));
    try (SoapClient client = (tls == null ? clientBuilder : clientBuilder.tls(tls)).build();
        OutputStream sink = new DigestOutputStream(OutputStream.nullOutputStream(), echoed)) {
      EchoCall echo = new EchoCall(client, codec, soap12 ? SoapVersion.SOAP_12
          : SoapVersion.SOAP_11, operation, soapAction(), request -> security.apply(spec,
          request));
      result = send(echo, generated, blobBytes, sink);
    }
    Summary summary = new Summary(blobBytes, HexFormat.of().formatHex(sentDigest), result,
        HexFormat.of().formatHex(echoed.digest()));
    print(summary);
    if (!summary.intact(name)) {
      throw new PeerException("the echo is not what was sent: " + result.echoedBytes()
          + " bytes with SHA-256 " + summary.echoSha256() + " and name '" + result.name() + "'");
    }
    return 0;
  }

  /** The SOAPAction: the option's, else the WSDL's for the operation, else none. */
  private String soapAction() throws IOException {
    if (soapAction != null) {
      return soapAction;
    }
    if (wsdl == null) {
      return EchoService.SOAP_ACTION;
    }
    Map<String, String> actions = WsdlActions.read(wsdl);
    String action = actions.get(operation);
    if (action == null) {
      throw new ParameterException(spec.commandLine(), wsdl + " binds no operation "
          + operation + " (it binds " + actions.keySet() + ")");
    }
    return action;
  }

  /** Sends the generated blob, or else the file, streamed from disk. */
  private EchoCall.Result send(EchoCall echo, ByteString generated, long blobBytes,
      OutputStream sink) throws IOException {
    MtomPolicy policy = mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
    if (generated != null) {
      return echo.call(url, policy, name, generated, sink);
    }
    try (InputStream in = Files.newInputStream(file)) {
      return echo.call(url, policy, name, in, blobBytes, sink);
    }
  }

  record Summary(long sentBytes, String sentSha256, EchoCall.Result reply, String echoSha256) {
    boolean intact(String name) {
      return sentSha256.equals(echoSha256) && name.equals(reply.name());
    }
  }

  private void checkOptions() {
    if ((file == null) == (size == null)) {
      throw new ParameterException(spec.commandLine(),
          "give either a FILE or --size (a generated blob), not " + (file == null ? "neither"
              : "both"));
    }
    if (url.getScheme() == null || !url.getScheme().matches("https?")) {
      throw new ParameterException(spec.commandLine(), "--url must be http:// or https://: "
          + url);
    }
    if (timeoutSeconds <= 0) {
      throw new ParameterException(spec.commandLine(), "--timeout must be positive");
    }
  }

  static ByteString generated(int bytes) {
    byte[] blob = new byte[bytes];
    new Random(bytes).nextBytes(blob);
    return ByteString.of(blob);
  }

  private static byte[] digest(ByteString blob) {
    MessageDigest sha = MimeInspect.sha256();
    sha.update(blob.asByteBuffer());
    return sha.digest();
  }

  private static byte[] digest(Path file) throws IOException {
    MessageDigest sha = MimeInspect.sha256();
    try (InputStream in = Files.newInputStream(file);
        OutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), sha)) {
      in.transferTo(out);
    }
    return sha.digest();
  }

  private void print(Summary s) {
    PrintWriter out = spec.commandLine().getOut();
    EchoCall.Result r = s.reply();
    String encoding = mtom ? "MTOM attachment" : "inline base64";
    if (json) {
      out.println("{\"url\":" + Json.str(url.toString()) + ",\"encoding\":"
          + Json.str(mtom ? "MTOM" : "base64") + ",\"soapVersion\":"
          + Json.str(soap12 ? "1.2" : "1.1") + ",\"blobBytes\":" + s.sentBytes()
          + ",\"requestBytes\":" + r.requestBytes() + ",\"status\":" + r.status()
          + ",\"contentType\":" + Json.str(r.contentType()) + ",\"echoedName\":"
          + Json.str(r.name()) + ",\"echoedBytes\":" + r.echoedBytes() + ",\"sha256\":"
          + Json.str(s.echoSha256()) + ",\"intact\":" + s.intact(name) + ",\"millis\":"
          + Json.num(r.nanos() / 1e6) + "}");
      return;
    }
    String size = ByteSize.format(s.sentBytes());
    out.printf("sent    %s as %s, %d bytes on the wire%n", size.endsWith(" B") ? size
        : size + " (" + s.sentBytes() + " bytes)", encoding, r.requestBytes());
    out.printf("reply   HTTP %d, %s%n", r.status(), r.contentType());
    out.printf("echo    name '%s', %d bytes, %s (SHA-256 %s)%n", r.name(), r.echoedBytes(),
        s.intact(name) ? "identical" : "DIFFERENT", s.echoSha256().substring(0, 16));
    out.printf(Locale.ROOT, "time    %.2f ms%n", r.nanos() / 1e6);
  }
}
