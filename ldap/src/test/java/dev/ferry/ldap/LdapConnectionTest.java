package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ProtocolOp.DeleteRequest;
import dev.ferry.ldap.ProtocolOp.DeleteResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The connection against a scripted in-process server: ordering, timeouts, failures. */
class LdapConnectionTest {
  private ServerSocket server;
  private Socket peer;
  private final BlockingQueue<LdapMessage> received = new LinkedBlockingQueue<>();

  @BeforeEach
  void listen() throws IOException {
    server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
    if (peer != null) {
      peer.close();
    }
  }

  private LdapConnection connect(Duration timeout, LdapLimits limits) throws Exception {
    return connect(LdapOptions.builder().timeout(timeout).limits(limits).build());
  }

  private LdapConnection connect(LdapOptions options) throws Exception {
    CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
      try {
        return server.accept();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    LdapConnection c = LdapConnection.connect("127.0.0.1", server.getLocalPort(), options);
    peer = accepted.get(5, TimeUnit.SECONDS);
    InputStream in = peer.getInputStream();
    Thread.ofVirtual().start(() -> {
      try {
        BerReader r = BerReader.of(in, BerRules.LDAP, LdapLimits.DEFAULTS.ber());
        while (r.hasNextElement()) {
          long offset = r.byteOffset();
          received.add(LdapCodec.decode(r.readRawElement(), offset, LdapLimits.DEFAULTS));
        }
      } catch (IOException ignored) {
        // the test closed the socket
      }
    });
    return c;
  }

  private LdapConnection connect() throws Exception {
    return connect(Duration.ofSeconds(5), LdapLimits.DEFAULTS);
  }

  private void reply(LdapMessage m) throws IOException {
    OutputStream out = peer.getOutputStream();
    LdapCodec.encode(m, out);
    out.flush();
  }

  private LdapMessage nextRequest() throws InterruptedException {
    LdapMessage m = received.poll(5, TimeUnit.SECONDS);
    assertTrue(m != null, "no request arrived");
    return m;
  }

  @Test
  void routesOutOfOrderResponsesByMessageId() throws Exception {
    try (LdapConnection c = connect()) {
      List<CompletableFuture<LdapMessage>> futures = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        futures.add(c.send(new DeleteRequest("cn=" + i), List.of()));
      }
      List<LdapMessage> requests = List.of(nextRequest(), nextRequest(), nextRequest());
      for (int i = 2; i >= 0; i--) {
        LdapMessage r = requests.get(i);
        String dn = ((DeleteRequest) r.op()).entry();
        reply(LdapMessage.of(r.messageId(), new DeleteResponse(LdapResult.of(ResultCode.SUCCESS,
            dn))));
      }
      for (int i = 0; i < 3; i++) {
        LdapMessage m = futures.get(i).get(5, TimeUnit.SECONDS);
        assertEquals("cn=" + i, m.op().result().diagnosticMessage());
      }
    }
  }

  @Test
  void timesOutAndAbandons() throws Exception {
    try (LdapConnection c = connect(Duration.ofMillis(200), LdapLimits.DEFAULTS)) {
      LdapException e = assertThrows(LdapException.class, () -> c.delete("cn=slow"));
      assertEquals(ResultCode.TIMEOUT, e.resultCode());
      assertTrue(e.getMessage().startsWith("delete \"cn=slow\": timeout: no response"),
          e.getMessage());
      LdapMessage request = nextRequest();
      LdapMessage abandon = nextRequest();
      assertEquals(new ProtocolOp.AbandonRequest(request.messageId()), abandon.op());
      // a late response is dropped, and the connection still works
      reply(LdapMessage.of(request.messageId(), new DeleteResponse(LdapResult.of(
          ResultCode.SUCCESS))));
      CompletableFuture<LdapMessage> next = c.send(new DeleteRequest("cn=next"), List.of());
      LdapMessage r = nextRequest();
      reply(LdapMessage.of(r.messageId(), new DeleteResponse(LdapResult.of(ResultCode.BUSY))));
      assertEquals(ResultCode.BUSY, next.get(5, TimeUnit.SECONDS).op().result().resultCode());
    }
  }

  /** Answers every request with its response type carrying {@code result}. */
  private void answerEverything(LdapResult result) {
    Thread.ofVirtual().start(() -> {
      try {
        while (true) {
          LdapMessage r = received.take();
          ProtocolOp response = switch (r.op()) {
            case ProtocolOp.BindRequest b -> new ProtocolOp.BindResponse(result, null);
            case ProtocolOp.SearchRequest q -> new ProtocolOp.SearchResultDone(result);
            case ProtocolOp.ModifyRequest m -> new ProtocolOp.ModifyResponse(result);
            case ProtocolOp.AddRequest a -> new ProtocolOp.AddResponse(result);
            case DeleteRequest d -> new DeleteResponse(result);
            case ProtocolOp.ModifyDnRequest m -> new ProtocolOp.ModifyDnResponse(result);
            case ProtocolOp.CompareRequest c -> new ProtocolOp.CompareResponse(result);
            case ProtocolOp.ExtendedRequest e -> new ProtocolOp.ExtendedResponse(result, null,
                null);
            default -> null; // unbind, abandon: no response
          };
          if (response != null) {
            reply(LdapMessage.of(r.messageId(), response));
          }
        }
      } catch (InterruptedException | IOException e) {
        // the test is over
      }
    });
  }

  /** One operation the connection performs, and what its error must name. */
  private record Call(String operation, String dn, org.junit.jupiter.api.function.Executable run) {}

  @Test
  void everyOperationsErrorNamesTheOperationTheDnAndWhatTheServerSaid() throws Exception {
    try (LdapConnection c = connect()) {
      answerEverything(new LdapResult(ResultCode.NO_SUCH_OBJECT, "dc=example",
          "no such entry under dc=example", List.of()));
      String entry = "cn=gone,ou=people,dc=example";
      ProtocolOp.SearchRequest search = ProtocolOp.SearchRequest.of(entry,
          SearchScope.BASE_OBJECT, Filter.present("objectClass"));
      List<Modification> change = List.of(new Modification(Modification.Type.REPLACE,
          Attribute.of("mail", "x@example.com")));
      String whoAmI = "extended operation " + ProtocolOp.ExtendedRequest.WHO_AM_I;
      List<Call> calls = List.of(
          new Call("bind", entry, () -> c.bind(entry, "secret")),
          new Call("bind", entry, () -> c.bind(ProtocolOp.BindRequest.simple(entry, "secret"))),
          new Call("SASL bind X-TEST", null, () -> c.bind(new ScriptedSaslClient(1, "auth"))),
          new Call("search", entry, () -> c.searchAll(search)),
          new Call("search", entry, () -> c.collect(search)),
          new Call("add", entry, () -> c.add(entry, List.of(Attribute.of("cn", "gone")))),
          new Call("modify", entry, () -> c.modify(entry, change)),
          new Call("delete", entry, () -> c.delete(entry)),
          new Call("modifyDN", entry, () -> c.modifyDn(entry, "cn=moved", true, null)),
          new Call("compare", entry, () -> c.compare(entry, "cn", ByteString.encodeUtf8("x"))),
          new Call(whoAmI, null, () -> c.extended(ProtocolOp.ExtendedRequest.WHO_AM_I, null)),
          new Call(whoAmI, null, c::whoAmI),
          new Call("StartTLS", null, c::startTls));
      for (Call call : calls) {
        LdapException e = assertThrows(LdapException.class, call.run(), call.operation());
        assertEquals(call.operation(), e.operation());
        assertEquals(call.dn(), e.dn());
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.resultCode());
        assertEquals("dc=example", e.result().matchedDn());
        String named = call.dn() == null ? call.operation()
            : call.operation() + " \"" + call.dn() + "\"";
        assertEquals(named + ": noSuchObject (32), matched DN \"dc=example\","
            + " server message \"no such entry under dc=example\"", e.getMessage());
      }
    }
  }

  @Test
  void failsOutstandingRequestsWhenTheServerCloses() throws Exception {
    LdapConnection c = connect();
    CompletableFuture<LdapMessage> f = c.send(new DeleteRequest("cn=x"), List.of());
    nextRequest();
    peer.close();
    Exception e = assertThrows(Exception.class, () -> f.get(5, TimeUnit.SECONDS));
    LdapException cause = assertInstanceOf(LdapException.class, e.getCause());
    assertEquals(ResultCode.SERVER_DOWN, cause.resultCode());
    waitUntilClosed(c);
    assertThrows(LdapException.class, () -> c.delete("cn=y"));
  }

  @Test
  void failsOnAMalformedResponseAndClosesTheConnection() throws Exception {
    LdapConnection c = connect();
    CompletableFuture<LdapMessage> f = c.send(new DeleteRequest("cn=x"), List.of());
    nextRequest();
    peer.getOutputStream().write(new byte[] {0x30, 0x03, 0x02, 0x01, (byte) 0xff});
    peer.getOutputStream().flush();
    Exception e = assertThrows(Exception.class, () -> f.get(5, TimeUnit.SECONDS));
    LdapException cause = assertInstanceOf(LdapException.class, e.getCause());
    assertTrue(cause.getMessage().contains("message ID -1"), cause.getMessage());
    waitUntilClosed(c);
  }

  @Test
  void noticeOfDisconnectionClosesTheConnection() throws Exception {
    LdapConnection c = connect();
    CompletableFuture<LdapMessage> f = c.send(new DeleteRequest("cn=x"), List.of());
    nextRequest();
    reply(LdapMessage.of(0, new ProtocolOp.ExtendedResponse(LdapResult.of(
        ResultCode.UNAVAILABLE, "shutting down"), "1.3.6.1.4.1.1466.20036", null)));
    Exception e = assertThrows(Exception.class, () -> f.get(5, TimeUnit.SECONDS));
    assertEquals(ResultCode.UNAVAILABLE,
        assertInstanceOf(LdapException.class, e.getCause()).resultCode());
    waitUntilClosed(c);
  }

  @Test
  void capsPendingRequests() throws Exception {
    LdapLimits two = LdapLimits.builder().maxPendingRequests(2).build();
    try (LdapConnection c = connect(Duration.ofSeconds(5), two)) {
      c.send(new DeleteRequest("cn=1"), List.of());
      c.send(new DeleteRequest("cn=2"), List.of());
      LdapException e = assertThrows(LdapException.class,
          () -> c.send(new DeleteRequest("cn=3"), List.of()));
      assertTrue(e.getMessage().contains("LdapLimits.maxPendingRequests exceeded: 3 > 2"));
    }
  }

  @Test
  void closeSendsUnbindAndFailsWaiters() throws Exception {
    LdapConnection c = connect();
    CompletableFuture<LdapMessage> f = c.send(new DeleteRequest("cn=x"), List.of());
    nextRequest();
    c.close();
    assertInstanceOf(ProtocolOp.UnbindRequest.class, nextRequest().op());
    assertThrows(Exception.class, () -> f.get(5, TimeUnit.SECONDS));
    assertFalse(c.isOpen());
  }

  @Test
  void aReferralWithABadFilterIsAProtocolErrorNotACrash() throws Exception {
    LdapOptions following = LdapOptions.builder().followReferrals(true)
        .timeout(Duration.ofSeconds(5)).build();
    try (LdapConnection c = connect(following)) {
      CompletableFuture<SearchOutcome> outcome = CompletableFuture.supplyAsync(() -> {
        try {
          return c.collect(ProtocolOp.SearchRequest.of("o=x", SearchScope.WHOLE_SUBTREE,
              Filter.present("objectClass")));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      LdapMessage search = nextRequest();
      // the referral leads back to this listener, whose backlog takes the connection
      String url = "ldap://127.0.0.1:" + server.getLocalPort() + "/o=y??sub?(uid=x";
      reply(LdapMessage.of(search.messageId(), new ProtocolOp.SearchResultDone(
          new LdapResult(ResultCode.REFERRAL, "", "", List.of(url)))));
      Exception e = assertThrows(Exception.class, () -> outcome.get(5, TimeUnit.SECONDS));
      LdapException cause = assertInstanceOf(LdapException.class, e.getCause().getCause());
      assertEquals(ResultCode.PROTOCOL_ERROR, cause.resultCode());
      assertTrue(cause.getMessage().contains("bad filter in referral"), cause.getMessage());
    }
  }

  /** Answers each bind request with {@code answer} applied to its step number (from 1). */
  private List<ProtocolOp.Sasl> serveBinds(IntFunction<ProtocolOp.BindResponse> answer) {
    List<ProtocolOp.Sasl> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread.ofVirtual().start(() -> {
      try {
        for (int step = 1; ; step++) {
          LdapMessage r = received.take();
          seen.add((ProtocolOp.Sasl) ((ProtocolOp.BindRequest) r.op()).authentication());
          reply(LdapMessage.of(r.messageId(), answer.apply(step)));
        }
      } catch (InterruptedException | IOException | ClassCastException e) {
        // the test is over (an unbind arrives as the connection closes)
      }
    });
    return seen;
  }

  private static ProtocolOp.BindResponse bindResponse(ResultCode code, String credentials) {
    return new ProtocolOp.BindResponse(LdapResult.of(code),
        credentials == null ? null : ByteString.encodeUtf8(credentials));
  }

  @Test
  void saslBindAnswersEachChallengeAndChecksTheLastOne() throws Exception {
    try (LdapConnection c = connect()) {
      List<ProtocolOp.Sasl> requests = serveBinds(step -> step == 1
          ? bindResponse(ResultCode.SASL_BIND_IN_PROGRESS, "c1")
          : bindResponse(ResultCode.SUCCESS, "c2"));
      ScriptedSaslClient client = new ScriptedSaslClient(2, "auth");
      assertEquals(ResultCode.SUCCESS, c.bind(client).resultCode());
      assertEquals(List.of("c1", "c2"), client.challenges);
      assertEquals(2, requests.size());
      assertEquals(new ProtocolOp.Sasl("X-TEST", null), requests.get(0));
      assertEquals(new ProtocolOp.Sasl("X-TEST", ByteString.encodeUtf8("r1")), requests.get(1));
    }
  }

  @Test
  void saslBindRefusesSuccessBeforeTheClientIsDone() throws Exception {
    try (LdapConnection c = connect()) {
      serveBinds(step -> bindResponse(ResultCode.SUCCESS, null));
      LdapException e = assertThrows(LdapException.class,
          () -> c.bind(new ScriptedSaslClient(2, "auth")));
      assertEquals(ResultCode.PROTOCOL_ERROR, e.resultCode());
      assertTrue(e.getMessage().contains("before the exchange was complete"), e.getMessage());
    }
  }

  @Test
  void saslBindStopsAServerThatNeverFinishes() throws Exception {
    try (LdapConnection c = connect()) {
      List<ProtocolOp.Sasl> requests = serveBinds(step ->
          bindResponse(ResultCode.SASL_BIND_IN_PROGRESS, "again"));
      LdapException e = assertThrows(LdapException.class,
          () -> c.bind(new ScriptedSaslClient(Integer.MAX_VALUE, "auth")));
      assertEquals(ResultCode.PROTOCOL_ERROR, e.resultCode());
      assertEquals(SaslBind.MAX_STEPS, requests.size());
    }
  }

  @Test
  void saslBindRefusesANegotiatedSecurityLayer() throws Exception {
    try (LdapConnection c = connect()) {
      serveBinds(step -> bindResponse(ResultCode.SUCCESS, "c1"));
      LdapException e = assertThrows(LdapException.class,
          () -> c.bind(new ScriptedSaslClient(1, "auth-conf")));
      assertEquals(ResultCode.PROTOCOL_ERROR, e.resultCode());
      assertTrue(e.getMessage().contains("auth-conf"), e.getMessage());
    }
  }

  /** A mechanism that completes after {@code steps} challenges, answering r1, r2, ... */
  private static final class ScriptedSaslClient implements SaslClient {
    final List<String> challenges = new ArrayList<>();
    private final int steps;
    private final String qop;

    ScriptedSaslClient(int steps, String qop) {
      this.steps = steps;
      this.qop = qop;
    }

    @Override
    public String getMechanismName() {
      return "X-TEST";
    }

    @Override
    public boolean hasInitialResponse() {
      return false;
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) {
      challenges.add(new String(challenge, StandardCharsets.UTF_8));
      return ("r" + challenges.size()).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isComplete() {
      return challenges.size() >= steps;
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) {
      throw new UnsupportedOperationException();
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object getNegotiatedProperty(String name) {
      return Sasl.QOP.equals(name) ? qop : null;
    }

    @Override
    public void dispose() {}
  }

  private static void waitUntilClosed(LdapConnection c) throws InterruptedException {
    for (int i = 0; i < 250 && c.isOpen(); i++) {
      Thread.sleep(20);
    }
    assertFalse(c.isOpen());
  }
}
