package dev.ferry.wssecurity;

import static dev.ferry.wssecurity.WsSecurityTest.CODEC;
import static dev.ferry.wssecurity.WsSecurityTest.receiver;
import static dev.ferry.wssecurity.WsSecurityTest.sender;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A policy per endpoint (server) and per call (client), over HTTP, with MTOM attachments. */
class WsSecurityOverHttpTest {
  // tag::wss-policies[]
  private static final WsSecurityPolicy REQUEST = WsSecurityPolicy.builder()
      .usernameToken(WsSecurityPolicy.Password.DIGEST) // nonce and created, replays refused
      .timestamp(Duration.ofMinutes(5))
      .signBody().signTimestamp()                       // X.509, RSA-SHA256 or ECDSA-SHA256
      .build();
  private static final WsSecurityPolicy REPLY = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().build();
  // end::wss-policies[]

  @BeforeAll
  static void keys() {
    WsSecurityTest.keys();
  }

  /** The echo, telling who the guard said called in the reply's name. */
  private static Dispatcher echo(WsSecurity guard) {
    return Dispatcher.builder().guard(guard).fallback(new Endpoint() {
      @Override
      public Payload handle(Message request) {
        throw new AssertionError();
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) throws Exception {
        EchoService.Echo e = EchoService.readEcho(request);
        return EchoService.request(CODEC, request.version(), MtomPolicy.ALWAYS,
            e.name() + " from " + http.getUserPrincipal().getName() + " by "
            + http.getAuthType(), e.attachinfo());
      }
    }).build();
  }

  @Test
  void aSecuredCallAndASecuredReplyWithAttachmentsStreamed() throws IOException {
    KeyMaterial serverKey = KeyMaterial.of(WsSecurityTest.server.key(),
        WsSecurityTest.server.chain());
    KeyMaterial aliceKey = KeyMaterial.of(WsSecurityTest.alice.key(),
        WsSecurityTest.alice.chain());
    TrustMaterial ca = TrustMaterial.of(WsSecurityTest.pki.certificate());
    // tag::wss-server[]
    WsSecurity server = WsSecurity.builder()
        .inbound(REQUEST)                                  // what a request must carry
        .outbound(REPLY)                                   // what the reply gets
        .credentials(WsSecurityCredentials.builder()
            .passwords(user -> "wonderland".toCharArray()) // or .passwordFile(...) for text
            .key(serverKey)                                // signs replies, decrypts requests
            .trust(ca)                                     // signers chain to this CA
            .build())
        .build();
    Dispatcher echo = echo(server);                        // Dispatcher.builder().guard(server)
    // end::wss-server[]
    // tag::wss-client[]
    WsSecurity client = WsSecurity.builder()
        .outbound(REQUEST).inbound(REPLY)
        .credentials(WsSecurityCredentials.builder()
            .user("alice", "wonderland".toCharArray())
            .key(aliceKey).trust(ca)
            .build())
        .build();
    // end::wss-client[]
    byte[] blob = Blobs.random(300_000, 5);
    try (SoapServer s = SoapServer.builder().endpoint("/echo", echo).build().start();
        SoapClient c = SoapClient.create()) {
      for (SoapVersion v : SoapVersion.values()) {
        Payload p = EchoService.request(CODEC, v, MtomPolicy.ALWAYS, "order",
            ByteString.of(blob));
        try (SoapResponse r = c.call(SoapRequest.builder(s.uri("/echo"), p).guard(client)
            .build())) {
          EchoService.Echo e = EchoService.readEcho(r.message());
          assertThat(e.name()).isEqualTo("order from alice by WS-Security");
          assertThat(e.attachinfo().toByteArray()).isEqualTo(blob);
          assertThat(r.principal().getName()).isEqualTo("CN=server,O=Ferry");
          assertThat(r.contentType()).startsWith("multipart/related");
        }
      }
      // a call without the guard is refused before it reaches the endpoint
      try (SoapResponse r = c.call(s.uri("/echo"), EchoService.request(CODEC,
          SoapVersion.SOAP_12, MtomPolicy.NEVER, "x", ByteString.encodeUtf8("y")), null)) {
        assertThat(r.isFault()).isTrue();
        assertThat(r.fault().subcodes()).extracting(q -> q.getLocalPart())
            .containsExactly("InvalidSecurity");
        assertThat(r.status()).isEqualTo(400);
      }
      // a reply that fails the client's checks fails the call
      WsSecurity demanding = WsSecurity.builder().outbound(REQUEST).inbound(WsSecurityPolicy
          .builder().encryptBody().build()).credentials(sender().trust(
              ca).build()).build();
      assertThatThrownBy(() -> c.call(SoapRequest.builder(s.uri("/echo"),
          EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER, "x",
              ByteString.encodeUtf8("y"))).guard(demanding).build()))
          .isInstanceOf(FaultException.class).cause().hasMessageContaining("an encrypted Body");
    }
  }

  @Test
  void anEncryptedRequestIsDispatchedDecrypted() throws IOException {
    WsSecurityPolicy encrypted = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().encryptBody().build();
    try (SoapServer s = SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .guard(WsSecurity.builder().inbound(encrypted).credentials(receiver().build()).build())
        .element(EchoService.REQUEST, EchoService::echo).build()).build().start();
        SoapClient c = SoapClient.create()) {
      Payload p = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER, "secret",
          ByteString.encodeUtf8("blob"));
      try (SoapResponse r = c.call(SoapRequest.builder(s.uri("/echo"), p)
          .guard(WsSecurityTest.out(encrypted)).build())) {
        assertThat(EchoService.readEcho(r.message()).name()).isEqualTo("secret");
      }
    }
  }
}
