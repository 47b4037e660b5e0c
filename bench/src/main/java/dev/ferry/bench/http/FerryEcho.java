package dev.ferry.bench.http;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Route;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;

/**
 * Ferry's echo server and client for the round-trip benchmarks, with its defaults; brokered, a
 * Ferry broker in the same JVM between them, as {@code ferry demo} runs them.
 */
final class FerryEcho implements EchoStack {
  /** 12 MiB as base64 is 16 MiB of envelope, the default root limit: raised for the bench. */
  private final SoapCodec codec = SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
      .maxRootBytes(64 << 20).build()).build(), XopCodec.builder());
  private final SoapServer server;
  private final Broker broker;
  private final SoapClient client;
  private final URI uri;
  private final MtomPolicy policy;

  FerryEcho(boolean mtom, boolean brokered) throws IOException {
    AccessLog.quiet();
    server = SoapServer.builder().codec(codec).endpoint("/echo", EchoService.dispatcher())
        .build().start();
    broker = brokered ? Broker.builder().host("127.0.0.1").port(0).codec(codec)
        .routes(Routes.of(List.of(Route.builder("/echo").to(server.uri("/echo")).build())))
        .build().start() : null;
    client = SoapClient.builder().codec(codec).build();
    uri = brokered ? broker.uri("/echo") : server.uri("/echo");
    // "MTOM on" attaches every blob, as CXF's mtom-enabled does (its threshold is 0), so the
    // two stacks send the same packages and the on/off pair shows where MTOM starts to pay
    policy = mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
  }

  @Override
  public long echo(ByteString blob) throws IOException {
    try (SoapResponse r = client.call(uri, EchoService.request(codec, SoapVersion.SOAP_11,
        policy, "bench", blob), EchoService.SOAP_ACTION)) {
      return EchoService.readEcho(r.message(), OutputStream.nullOutputStream()).length();
    }
  }

  @Override
  public void close() throws IOException {
    client.close();
    if (broker != null) {
      broker.close();
    }
    server.close();
  }
}
