package dev.ferry.ldap;

import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ProtocolOp.ExtendedRequest;
import dev.ferry.ldap.ProtocolOp.ExtendedResponse;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.internal.LdapSpans;
import io.opentelemetry.api.trace.Span;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;

/**
 * A client connection to an LDAP server over TCP: plain, upgraded with StartTLS, or over TLS
 * from the first byte ({@code ldaps://}). TLS verifies the server's certificate against the
 * {@link LdapOptions#sslContext() trust} and its host name.
 *
 * <p>Requests from any number of threads share the connection: each gets the next message ID, is
 * written whole under a lock, and waits for its own response, which a single reader (a virtual
 * thread) routes by message ID. Search results stream through {@link SearchResults}. Every wait
 * has a timeout, after which the request is abandoned. {@link #close()} sends an unbind, closes
 * the socket and fails whatever is still waiting.
 *
 * <pre>{@code
 * try (LdapConnection c = LdapConnection.connect("127.0.0.1", 389)) {
 *   c.bind("cn=admin,dc=example,dc=com", "secret");
 *   List<SearchResultEntry> people = c.searchAll(SearchRequest.of("dc=example,dc=com",
 *       SearchScope.WHOLE_SUBTREE, Filter.parse("(objectClass=person)"), "cn"));
 * }
 * LdapOptions tls = LdapOptions.builder().sslContext(contextWithOurCaAndClientKey).build();
 * try (LdapConnection c = LdapConnection.connect("ldaps://ldap.example.com", tls)) {
 *   c.bindExternal();                                // authenticated by the client certificate
 * }
 * }</pre>
 */
public final class LdapConnection implements Closeable {
  /** Default wait for a response: {@value} ms. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

  private final Socket socket;
  private final String host;
  private final int port;
  private final LdapOptions options;
  private final LdapLimits limits;
  private final long timeoutNanos;
  private final LdapSpans spans;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicInteger lastId = new AtomicInteger();
  private final Map<Integer, Object> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<InputStream> tlsInput = new CompletableFuture<>();
  private final Thread reader;
  private volatile OutputStream out;
  private volatile int startTlsId = -1;
  private volatile boolean closed;

  private LdapConnection(Socket socket, String host, int port, LdapOptions options)
      throws IOException {
    this.socket = socket;
    this.host = host;
    this.port = port;
    this.options = options;
    this.limits = options.limits();
    this.timeoutNanos = options.timeout().toNanos();
    this.spans = LdapSpans.orGlobal(options.openTelemetry(), "dev.ferry.ldap");
    this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
    // Buffered: the framer reads header octets one at a time. Nothing is read past a PDU that
    // matters for StartTLS, because the server sends nothing after its StartTLS response.
    InputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    this.reader = Thread.ofVirtual().name("ldap-reader-" + host + ":" + port)
        .start(() -> readLoop(in));
  }

  /** Connects with the default limits and timeout. */
  public static LdapConnection connect(String host, int port) throws IOException {
    return connect(host, port, LdapLimits.DEFAULTS, Duration.ofMillis(DEFAULT_TIMEOUT_MILLIS));
  }

  /** Connects; {@code timeout} bounds the connect and every later wait for a response. */
  public static LdapConnection connect(String host, int port, LdapLimits limits,
      Duration timeout) throws IOException {
    return connect(host, port, LdapOptions.builder().limits(limits).timeout(timeout).build());
  }

  /** Connects without TLS (it can be added later with {@link #startTls()}). */
  public static LdapConnection connect(String host, int port, LdapOptions options)
      throws IOException {
    return open(new LdapUrl("ldap", host, port, "", List.of(), null, null), options);
  }

  /** Connects over TLS from the first byte ({@code ldaps}); see {@link LdapUrl#LDAPS_PORT}. */
  public static LdapConnection connectTls(String host, int port, LdapOptions options)
      throws IOException {
    return open(new LdapUrl("ldaps", host, port, "", List.of(), null, null), options);
  }

  /**
   * Connects to the server an LDAP URL names, such as {@code ldaps://ldap.example.com} (port
   * 636) or {@code ldap://127.0.0.1:1389}; only its scheme, host and port are used.
   */
  public static LdapConnection connect(String url, LdapOptions options) throws IOException {
    return open(LdapUrl.parse(url), options);
  }

  static LdapConnection open(LdapUrl url, LdapOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    int timeoutMillis = (int) Math.min(options.timeout().toMillis(), Integer.MAX_VALUE);
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(url.host(), url.port()), timeoutMillis);
      Socket used = url.isTls() ? handshake(s, url.host(), url.port(),
          options.sslContext().getSocketFactory(), options.verifyHostname(), timeoutMillis) : s;
      return new LdapConnection(used, url.host(), url.port(), options);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** Runs a client TLS handshake over {@code raw}, within {@code timeoutMillis}. */
  private static SSLSocket handshake(Socket raw, String host, int port, SSLSocketFactory factory,
      boolean verifyHostname, int timeoutMillis) throws IOException {
    SSLSocket tls = (SSLSocket) factory.createSocket(raw, host, port, true);
    tls.setUseClientMode(true);
    if (verifyHostname) {
      // RFC 4513 section 3.1.3 rules, as the JDK implements them for "LDAPS"
      SSLParameters params = tls.getSSLParameters();
      params.setEndpointIdentificationAlgorithm("LDAPS");
      tls.setSSLParameters(params);
    }
    int readTimeout = raw.getSoTimeout();
    tls.setSoTimeout(timeoutMillis);
    tls.startHandshake();
    tls.setSoTimeout(readTimeout);
    return tls;
  }

  // --- operations ------------------------------------------------------------------------------

  /** Performs a simple bind; throws unless the result is success. */
  public LdapResult bind(String dn, String password) throws IOException {
    ProtocolOp.BindRequest bind = ProtocolOp.BindRequest.simple(dn, password);
    return checked(bind, request(bind));
  }

  /** Performs a bind with any authentication choice; returns the response (SASL steps). */
  public ProtocolOp.BindResponse bind(ProtocolOp.BindRequest request) throws IOException {
    LdapMessage m = request(request);
    checked(request, m);
    return (ProtocolOp.BindResponse) m.op();
  }

  /**
   * Binds with SASL EXTERNAL (RFC 4422 appendix A): the server authenticates the identity TLS
   * established, that is the client certificate of {@code ldaps://} or StartTLS.
   */
  public LdapResult bindExternal() throws IOException {
    return bindSasl("EXTERNAL", null, Map.of(), callbacks -> {
      throw new UnsupportedCallbackException(callbacks[0], "EXTERNAL asks nothing");
    });
  }

  /**
   * Binds with a SASL password mechanism the JDK provides, such as {@code DIGEST-MD5},
   * {@code CRAM-MD5} or {@code PLAIN} (send PLAIN over TLS only). Without a security layer:
   * protect the connection with TLS instead.
   */
  public LdapResult bindSasl(String mechanism, String authenticationId, char[] password)
      throws IOException {
    PasswordCallbacks callbacks = new PasswordCallbacks(authenticationId, password);
    try {
      return bindSasl(mechanism, null, Map.of(), callbacks);
    } finally {
      callbacks.clear();
    }
  }

  /**
   * Binds with any SASL mechanism a {@link Sasl} client factory offers, with protocol
   * {@code ldap} and this connection's host as the server name.
   *
   * @param authorizationId the identity to act as, or null for the authenticated one
   * @param properties {@link Sasl} properties, such as {@link Sasl#QOP}
   */
  public LdapResult bindSasl(String mechanism, String authorizationId, Map<String, ?> properties,
      CallbackHandler callbacks) throws IOException {
    SaslClient client = Sasl.createSaslClient(new String[] {mechanism}, authorizationId, "ldap",
        host, properties, callbacks);
    if (client == null) {
      throw new LdapException(ResultCode.AUTH_METHOD_NOT_SUPPORTED,
          "no SASL client for " + mechanism + " in this JVM", null);
    }
    try {
      return bind(client);
    } finally {
      client.dispose();
    }
  }

  /**
   * Binds with {@code client}, step by step while the server answers saslBindInProgress. As for
   * every bind, send nothing else on the connection until it returns (RFC 4511 section 4.2.1).
   *
   * @throws LdapException with the server's result if it refuses, or with protocolError if the
   *     exchange does not complete or negotiates a security layer (not supported: use TLS)
   */
  public LdapResult bind(SaslClient client) throws IOException {
    return SaslBind.run(client, bind -> (ProtocolOp.BindResponse) request(bind).op());
  }

  /** Adds an entry. */
  public LdapResult add(String dn, List<Attribute> attributes) throws IOException {
    return perform(new ProtocolOp.AddRequest(dn, attributes), 0);
  }

  /** Modifies an entry. */
  public LdapResult modify(String dn, List<Modification> changes) throws IOException {
    return perform(new ProtocolOp.ModifyRequest(dn, changes), 0);
  }

  /** Deletes an entry. */
  public LdapResult delete(String dn) throws IOException {
    return perform(new ProtocolOp.DeleteRequest(dn), 0);
  }

  /** Renames or moves an entry; {@code newSuperior} may be null. */
  public LdapResult modifyDn(String dn, String newRdn, boolean deleteOldRdn, String newSuperior)
      throws IOException {
    return perform(new ProtocolOp.ModifyDnRequest(dn, newRdn, deleteOldRdn, newSuperior), 0);
  }

  /** Returns true for compareTrue, false for compareFalse; throws on any other result. */
  public boolean compare(String dn, String attribute, ByteString value) throws IOException {
    ProtocolOp.CompareRequest compare = new ProtocolOp.CompareRequest(dn, attribute, value);
    LdapResult r = perform(compare, 0);
    if (r.resultCode().equals(ResultCode.COMPARE_TRUE)) {
      return true;
    }
    if (r.resultCode().equals(ResultCode.COMPARE_FALSE)) {
      return false;
    }
    throw new LdapException(Operation.of(compare), r);
  }

  /** Sends an extended request and returns its response; throws unless it succeeded. */
  public ExtendedResponse extended(String oid, ByteString value) throws IOException {
    ExtendedRequest request = new ExtendedRequest(oid, value);
    LdapMessage m = request(request);
    checked(request, m);
    return (ExtendedResponse) m.op();
  }

  /** Returns the authorization identity (RFC 4532), such as {@code dn:cn=admin,dc=example}. */
  public String whoAmI() throws IOException {
    ByteString v = extended(ExtendedRequest.WHO_AM_I, null).value();
    return v == null ? "" : v.utf8();
  }

  /**
   * Starts a search; the results stream in as they arrive. Continuation references arrive as
   * messages too, and are not followed here even if the options say so: {@link #collect} does.
   */
  public SearchResults search(SearchRequest request, Control... controls) throws IOException {
    Span span = spans.startClient(request, host, port);
    try {
      int id = nextId();
      SearchResults results = new SearchResults(this, id, Operation.of(request), timeoutNanos,
          span);
      register(id, results);
      send(new LdapMessage(id, request, List.of(controls)));
      return results;
    } catch (IOException | RuntimeException e) {
      LdapSpans.fail(span, e);
      throw e;
    }
  }

  /**
   * Runs a search to the end and returns its entries; throws unless the result is success.
   * Continuation references are left out, and a referral result throws with its URLs in
   * {@link LdapException#result()}, unless referrals are followed; {@link #collect} returns
   * them as data instead.
   */
  public List<ProtocolOp.SearchResultEntry> searchAll(SearchRequest request, Control... controls)
      throws IOException {
    SearchOutcome outcome = collect(request, controls);
    checked(request, outcome.done());
    return outcome.entries();
  }

  /**
   * Runs a search to the end and returns everything it answered. Referrals are data here: a
   * referral result is returned (not thrown) with its URLs, and continuation references are
   * kept, unless {@link LdapOptions#followReferrals()} is on: then both are followed on new
   * connections, and the entries found there are added.
   *
   * @throws LdapException for any result other than success or referral
   */
  public SearchOutcome collect(SearchRequest request, Control... controls) throws IOException {
    return collect(request, List.of(controls), 0);
  }

  private SearchOutcome collect(SearchRequest request, List<Control> controls, int hops)
      throws IOException {
    List<ProtocolOp.SearchResultEntry> entries = new ArrayList<>();
    List<ProtocolOp.SearchResultReference> references = new ArrayList<>();
    LdapMessage done;
    try (SearchResults r = search(request, controls.toArray(Control[]::new))) {
      while (r.hasNext()) {
        switch (r.next().op()) {
          case ProtocolOp.SearchResultEntry e -> entries.add(e);
          case ProtocolOp.SearchResultReference ref -> references.add(ref);
          default -> { } // an intermediate response: nothing to collect
        }
      }
      done = r.doneMessage();
    }
    LdapResult result = done.op().result();
    boolean referral = result.resultCode().equals(ResultCode.REFERRAL);
    if (!referral) {
      checked(request, done);
    }
    if (!options.followReferrals()) {
      return new SearchOutcome(entries, references, done);
    }
    if (referral) {
      return Referrals.follow(options, result.referrals(), hops, (c, url) ->
          c.collect(Referrals.retarget(request, url), controls, hops + 1));
    }
    return followReferences(request, controls, hops, new SearchOutcome(entries, references,
        done));
  }

  private SearchOutcome followReferences(SearchRequest request, List<Control> controls,
      int hops, SearchOutcome found) throws IOException {
    List<ProtocolOp.SearchResultEntry> entries = new ArrayList<>(found.entries());
    List<ProtocolOp.SearchResultReference> unreachable = new ArrayList<>();
    for (ProtocolOp.SearchResultReference ref : found.references()) {
      try {
        SearchOutcome there = Referrals.follow(options, ref.uris(), hops, (c, url) ->
            c.collect(Referrals.retarget(request, url), controls, hops + 1));
        entries.addAll(there.entries());
        unreachable.addAll(there.references());
      } catch (LdapException e) {
        if (!e.resultCode().equals(ResultCode.CONNECT_ERROR)) {
          throw e;
        }
        unreachable.add(ref); // kept as data: the caller sees what was not searched
      }
    }
    return new SearchOutcome(entries, unreachable, found.done());
  }

  /**
   * Sends a request and returns a future of its final response (for searches, use
   * {@link #search}). The future fails with an {@link LdapException} if the connection fails.
   */
  public CompletableFuture<LdapMessage> send(ProtocolOp request, List<Control> controls)
      throws IOException {
    if (request instanceof SearchRequest) {
      throw new IllegalArgumentException("use search(...) for searches");
    }
    Span span = spans.startClient(request, host, port);
    try {
      int id = nextId();
      CompletableFuture<LdapMessage> f = new CompletableFuture<>();
      register(id, f);
      send(new LdapMessage(id, request, controls));
      return f.whenComplete((m, failure) -> {
        if (failure != null) {
          LdapSpans.fail(span, failure);
        } else {
          LdapSpans.endClient(span, resultCode(m), -1);
        }
      });
    } catch (IOException | RuntimeException e) {
      LdapSpans.fail(span, e);
      throw e;
    }
  }

  /** Abandons the request with {@code messageId}; the server sends no response to this. */
  public void abandon(int messageId) throws IOException {
    Object p = pending.remove(messageId);
    if (p instanceof CompletableFuture<?> f) {
      f.completeExceptionally(new LdapException(ResultCode.CANCELED, "abandoned", null));
    }
    send(LdapMessage.of(nextId(), new ProtocolOp.AbandonRequest(messageId)));
  }

  /**
   * Upgrades the connection to TLS (RFC 4511 section 4.14) with the options' TLS context and
   * host name verification. No other request may be outstanding.
   */
  public void startTls() throws IOException {
    startTls(options.sslContext().getSocketFactory(), options.verifyHostname());
  }

  /**
   * Upgrades the connection to TLS (RFC 4511 section 4.14), verifying the server with
   * {@code factory}'s trust material and the host name. No other request may be outstanding.
   */
  public void startTls(SSLSocketFactory factory) throws IOException {
    startTls(factory, true);
  }

  private void startTls(SSLSocketFactory factory, boolean verifyHostname) throws IOException {
    if (!pending.isEmpty()) {
      throw new IllegalStateException("StartTLS needs a connection without outstanding requests");
    }
    int id = nextId();
    CompletableFuture<LdapMessage> f = new CompletableFuture<>();
    startTlsId = id;
    register(id, f);
    ExtendedRequest request = new ExtendedRequest(ExtendedRequest.START_TLS, null);
    send(LdapMessage.of(id, request));
    LdapMessage response = await(Operation.of(request), id, f);
    if (!response.op().result().resultCode().equals(ResultCode.SUCCESS)) {
      throw new LdapException(Operation.of(request), response.op().result());
    }
    try {
      SSLSocket tls = handshake(socket, host, port, factory, verifyHostname,
          (int) Math.min(TimeUnit.NANOSECONDS.toMillis(timeoutNanos), Integer.MAX_VALUE));
      out = new BufferedOutputStream(tls.getOutputStream(), 8192);
      tlsInput.complete(new BufferedInputStream(tls.getInputStream(), 16 * 1024));
    } catch (IOException | RuntimeException e) {
      tlsInput.completeExceptionally(e);
      close();
      throw e;
    }
  }

  /** Returns true until the connection is closed or fails. */
  public boolean isOpen() {
    return !closed;
  }

  /** Sends an unbind, closes the socket and fails every outstanding request. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      send(LdapMessage.of(nextId(), new ProtocolOp.UnbindRequest()));
    } catch (IOException ignored) {
      // the connection may already be broken; closing is what matters
    }
    shutdown(new LdapException(ResultCode.SERVER_DOWN, "connection closed", null));
  }

  // --- plumbing --------------------------------------------------------------------------------

  /**
   * Sends {@code op} and returns its result unless it is an error; if the answer is a referral
   * and referrals are followed, follows it, so that an error names the DN that failed.
   */
  private LdapResult perform(ProtocolOp op, int hops) throws IOException {
    LdapMessage m = request(op);
    LdapResult r = m.op().result();
    if (!options.followReferrals() || r == null
        || !r.resultCode().equals(ResultCode.REFERRAL)) {
      return checked(op, m); // a result-less answer is a protocolError
    }
    return Referrals.follow(options, r.referrals(), hops, (c, url) ->
        c.perform(Referrals.retarget(op, url), hops + 1));
  }

  private LdapMessage request(ProtocolOp op) throws IOException {
    Span span = spans.startClient(op, host, port);
    try {
      int id = nextId();
      CompletableFuture<LdapMessage> f = new CompletableFuture<>();
      register(id, f);
      send(LdapMessage.of(id, op));
      LdapMessage m = await(Operation.of(op), id, f);
      LdapSpans.endClient(span, resultCode(m), -1);
      return m;
    } catch (IOException | RuntimeException e) {
      LdapSpans.fail(span, e);
      throw e;
    }
  }

  /** The code of {@code m}'s result; protocolError for an answer without one. */
  private static int resultCode(LdapMessage m) {
    LdapResult r = m.op().result();
    return r == null ? ResultCode.PROTOCOL_ERROR.value() : r.resultCode().value();
  }

  private LdapMessage await(Operation op, int id, CompletableFuture<LdapMessage> f)
      throws IOException {
    try {
      return f.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (forget(id)) {
        abandon(id);
      }
      throw new LdapException(op, ResultCode.TIMEOUT, "no response to message " + id
          + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io instanceof LdapException le ? new LdapException(op, le.resultCode(),
            le.result().diagnosticMessage(), le) : io;
      }
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      forget(id);
      throw new InterruptedIOException("interrupted while waiting for message " + id);
    }
  }

  /** Returns the result of {@code request}'s response {@code m}, or throws if it is an error. */
  private static LdapResult checked(ProtocolOp request, LdapMessage m) throws LdapException {
    LdapResult r = m.op().result();
    if (r == null || !r.resultCode().isSuccess()) {
      throw new LdapException(Operation.of(request), r != null ? r
          : LdapResult.of(ResultCode.PROTOCOL_ERROR, "unexpected " + m.op()));
    }
    return r;
  }

  private int nextId() {
    return lastId.updateAndGet(i -> i == LdapMessage.MAX_MESSAGE_ID ? 1 : i + 1);
  }

  private void register(int id, Object waiter) throws IOException {
    if (closed) {
      throw new LdapException(ResultCode.SERVER_DOWN, "connection is closed", null);
    }
    if (pending.size() >= limits.maxPendingRequests()) {
      throw new LdapException(ResultCode.BUSY, "LdapLimits.maxPendingRequests exceeded: "
          + (pending.size() + 1) + " > " + limits.maxPendingRequests(), null);
    }
    pending.put(id, waiter);
  }

  /** Stops routing responses for {@code id}; returns true if it was still outstanding. */
  boolean forget(int id) {
    return pending.remove(id) != null;
  }

  private void send(LdapMessage m) throws IOException {
    ByteString pdu = LdapCodec.encode(m); // encode outside the lock; write whole inside it
    writeLock.lock();
    try {
      if (closed) {
        throw new LdapException(ResultCode.SERVER_DOWN, "connection is closed", null);
      }
      pdu.writeTo(out);
      out.flush();
    } catch (IOException e) {
      pending.remove(m.messageId());
      throw e;
    } finally {
      writeLock.unlock();
    }
  }

  private void readLoop(InputStream in) {
    try {
      BerReader ber = BerReader.of(in, BerRules.LDAP, limits.ber());
      while (ber.hasNextElement()) {
        long offset = ber.byteOffset();
        LdapMessage m = LdapCodec.decode(ber.readRawElement(), offset, limits);
        if (dispatch(m) && m.messageId() == startTlsId) {
          ber = BerReader.of(tlsInput.get(), BerRules.LDAP, limits.ber());
        }
      }
      shutdown(new LdapException(ResultCode.SERVER_DOWN, "the server closed the connection",
          null));
    } catch (IOException e) {
      shutdown(closed ? new LdapException(ResultCode.SERVER_DOWN, "connection closed", e)
          : new LdapException(ResultCode.SERVER_DOWN, e.getMessage(), e));
    } catch (InterruptedException | ExecutionException e) {
      shutdown(new LdapException(ResultCode.SERVER_DOWN, "StartTLS failed", e));
    }
  }

  /** Routes one response; returns true if it was a successful StartTLS response. */
  private boolean dispatch(LdapMessage m) throws IOException, InterruptedException {
    if (m.messageId() == 0 && m.op() instanceof ExtendedResponse notice) {
      // unsolicited notification, such as notice of disconnection (RFC 4511 section 4.4)
      shutdown(new LdapException(notice.result()));
      return false;
    }
    Object p = pending.get(m.messageId());
    if (p instanceof SearchResults results) {
      if (results.deliver(m)) {
        pending.remove(m.messageId());
      }
    } else if (p instanceof CompletableFuture<?> f) {
      pending.remove(m.messageId());
      @SuppressWarnings("unchecked")
      CompletableFuture<LdapMessage> future = (CompletableFuture<LdapMessage>) f;
      future.complete(m);
    }
    return m.messageId() == startTlsId && m.op().result() != null
        && m.op().result().resultCode().equals(ResultCode.SUCCESS);
  }

  private void shutdown(LdapException cause) {
    closed = true;
    try {
      socket.close();
    } catch (IOException ignored) {
      // nothing more to do with a socket we are abandoning
    }
    tlsInput.completeExceptionally(cause);
    for (Integer id : List.copyOf(pending.keySet())) {
      Object p = pending.remove(id);
      if (p instanceof SearchResults r) {
        r.fail(cause);
      } else if (p instanceof CompletableFuture<?> f) {
        f.completeExceptionally(cause);
      }
    }
  }

  @Override
  public String toString() {
    return "LdapConnection[" + host + ":" + port + (closed ? " closed" : "") + "]";
  }
}
