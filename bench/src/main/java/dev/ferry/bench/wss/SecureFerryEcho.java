package dev.ferry.bench.wss;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;

/**
 * Ferry's echo over HTTP with WS-Security: the endpoint's guard checks the request policy and
 * applies the reply policy, the call's guard the reverse. {@code none} runs without a guard.
 */
final class SecureFerryEcho implements AutoCloseable {
  private final SoapCodec codec = SoapCodec.create();
  private final SoapServer server;
  private final SoapClient client;
  private final URI uri;
  private final MtomPolicy mtom;
  private final WsSecurity clientSecurity;

  SecureFerryEcho(String security, boolean mtom, String keyType, boolean validateSchema)
      throws IOException {
    WsSecurityPolicy request = policy(security, true, validateSchema);
    WsSecurityPolicy reply = policy(security, false, validateSchema);
    Dispatcher.Builder d = Dispatcher.builder().element(EchoService.REQUEST, EchoService::echo);
    if (request != null) {
      d.guard(WsSecurity.builder().inbound(request).outbound(reply)
          .credentials(WssKeys.service(keyType)).build());
      clientSecurity = WsSecurity.builder().outbound(request).inbound(reply)
          .credentials(WssKeys.client(keyType)).build();
    } else {
      clientSecurity = null;
    }
    server = SoapServer.builder().codec(codec).endpoint("/echo", d.build()).build().start();
    client = SoapClient.builder().codec(codec).build();
    uri = server.uri("/echo");
    this.mtom = mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
  }

  /**
   * The policy of the request ({@code request}) or the reply for a benchmark's name, received
   * headers checked against the schema or not.
   */
  static WsSecurityPolicy policy(String security, boolean request, boolean validateSchema) {
    return switch (security) {
      case "none" -> null;
      case "usernameToken" -> request ? WssKeys.usernameToken(validateSchema)
          : WsSecurityPolicy.NONE;
      case "signed" -> WssKeys.signed(validateSchema);
      default -> throw new IllegalArgumentException("no such security: " + security);
    };
  }

  long echo(ByteString blob) throws IOException {
    SoapRequest.Builder r = SoapRequest.builder(uri, EchoService.request(codec,
        SoapVersion.SOAP_11, mtom, "bench", blob)).soapAction(EchoService.SOAP_ACTION);
    if (clientSecurity != null) {
      r.guard(clientSecurity);
    }
    try (SoapResponse reply = client.call(r.build())) {
      return EchoService.readEcho(reply.message(), OutputStream.nullOutputStream()).length();
    }
  }

  @Override
  public void close() throws IOException {
    client.close();
    server.close();
  }
}
