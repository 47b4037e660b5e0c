package dev.ferry.ldap;

import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ProtocolOp.ExtendedRequest;
import dev.ferry.ldap.ProtocolOp.ExtendedResponse;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
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
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A client connection to an LDAP server over TCP, optionally upgraded with StartTLS.
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
 * }</pre>
 */
public final class LdapConnection implements Closeable {
  /** Default wait for a response: {@value} ms. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

  private final Socket socket;
  private final String host;
  private final int port;
  private final LdapLimits limits;
  private final long timeoutNanos;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicInteger lastId = new AtomicInteger();
  private final Map<Integer, Object> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<InputStream> tlsInput = new CompletableFuture<>();
  private final Thread reader;
  private volatile OutputStream out;
  private volatile int startTlsId = -1;
  private volatile boolean closed;

  private LdapConnection(Socket socket, String host, int port, LdapLimits limits,
      Duration timeout) throws IOException {
    this.socket = socket;
    this.host = host;
    this.port = port;
    this.limits = limits;
    this.timeoutNanos = timeout.toNanos();
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
    Objects.requireNonNull(limits, "limits");
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(host, port), (int) Math.min(timeout.toMillis(),
          Integer.MAX_VALUE));
      return new LdapConnection(s, host, port, limits, timeout);
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  // --- operations ------------------------------------------------------------------------------

  /** Performs a simple bind; throws unless the result is success. */
  public LdapResult bind(String dn, String password) throws IOException {
    return checked(request(ProtocolOp.BindRequest.simple(dn, password)));
  }

  /** Performs a bind with any authentication choice; returns the response (SASL steps). */
  public ProtocolOp.BindResponse bind(ProtocolOp.BindRequest request) throws IOException {
    LdapMessage m = request(request);
    checked(m);
    return (ProtocolOp.BindResponse) m.op();
  }

  /** Adds an entry. */
  public LdapResult add(String dn, List<Attribute> attributes) throws IOException {
    return checked(request(new ProtocolOp.AddRequest(dn, attributes)));
  }

  /** Modifies an entry. */
  public LdapResult modify(String dn, List<Modification> changes) throws IOException {
    return checked(request(new ProtocolOp.ModifyRequest(dn, changes)));
  }

  /** Deletes an entry. */
  public LdapResult delete(String dn) throws IOException {
    return checked(request(new ProtocolOp.DeleteRequest(dn)));
  }

  /** Renames or moves an entry; {@code newSuperior} may be null. */
  public LdapResult modifyDn(String dn, String newRdn, boolean deleteOldRdn, String newSuperior)
      throws IOException {
    return checked(request(new ProtocolOp.ModifyDnRequest(dn, newRdn, deleteOldRdn,
        newSuperior)));
  }

  /** Returns true for compareTrue, false for compareFalse; throws on any other result. */
  public boolean compare(String dn, String attribute, ByteString value) throws IOException {
    LdapResult r = checked(request(new ProtocolOp.CompareRequest(dn, attribute, value)));
    if (r.resultCode().equals(ResultCode.COMPARE_TRUE)) {
      return true;
    }
    if (r.resultCode().equals(ResultCode.COMPARE_FALSE)) {
      return false;
    }
    throw new LdapException(r);
  }

  /** Sends an extended request and returns its response; throws unless it succeeded. */
  public ExtendedResponse extended(String oid, ByteString value) throws IOException {
    LdapMessage m = request(new ExtendedRequest(oid, value));
    checked(m);
    return (ExtendedResponse) m.op();
  }

  /** Returns the authorization identity (RFC 4532), such as {@code dn:cn=admin,dc=example}. */
  public String whoAmI() throws IOException {
    ByteString v = extended(ExtendedRequest.WHO_AM_I, null).value();
    return v == null ? "" : v.utf8();
  }

  /** Starts a search; the results stream in as they arrive. */
  public SearchResults search(SearchRequest request, Control... controls) throws IOException {
    int id = nextId();
    SearchResults results = new SearchResults(this, id, timeoutNanos);
    register(id, results);
    send(new LdapMessage(id, request, List.of(controls)));
    return results;
  }

  /** Runs a search to the end and returns its entries; throws unless the result is success. */
  public List<ProtocolOp.SearchResultEntry> searchAll(SearchRequest request, Control... controls)
      throws IOException {
    List<ProtocolOp.SearchResultEntry> entries = new ArrayList<>();
    try (SearchResults r = search(request, controls)) {
      while (r.hasNext()) {
        if (r.next().op() instanceof ProtocolOp.SearchResultEntry e) {
          entries.add(e);
        }
      }
      checked(r.doneMessage());
    }
    return entries;
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
    int id = nextId();
    CompletableFuture<LdapMessage> f = new CompletableFuture<>();
    register(id, f);
    send(new LdapMessage(id, request, controls));
    return f;
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
   * Upgrades the connection to TLS (RFC 4511 section 4.14), verifying the server with
   * {@code factory}'s trust material and the host name. No other request may be outstanding.
   */
  public void startTls(SSLSocketFactory factory) throws IOException {
    if (!pending.isEmpty()) {
      throw new IllegalStateException("StartTLS needs a connection without outstanding requests");
    }
    int id = nextId();
    CompletableFuture<LdapMessage> f = new CompletableFuture<>();
    startTlsId = id;
    register(id, f);
    send(LdapMessage.of(id, new ExtendedRequest(ExtendedRequest.START_TLS, null)));
    LdapMessage response = await(id, f);
    if (!response.op().result().resultCode().equals(ResultCode.SUCCESS)) {
      throw new LdapException(response.op().result());
    }
    try {
      SSLSocket tls = (SSLSocket) factory.createSocket(socket, host, port, true);
      tls.setUseClientMode(true);
      javax.net.ssl.SSLParameters params = tls.getSSLParameters();
      params.setEndpointIdentificationAlgorithm("LDAPS");
      tls.setSSLParameters(params);
      tls.startHandshake();
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

  private LdapMessage request(ProtocolOp op) throws IOException {
    int id = nextId();
    CompletableFuture<LdapMessage> f = new CompletableFuture<>();
    register(id, f);
    send(LdapMessage.of(id, op));
    return await(id, f);
  }

  private LdapMessage await(int id, CompletableFuture<LdapMessage> f) throws IOException {
    try {
      return f.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (forget(id)) {
        abandon(id);
      }
      throw new LdapException(ResultCode.TIMEOUT, "no response to message " + id + " within "
          + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io instanceof LdapException le ? new LdapException(le.resultCode(),
            le.result().diagnosticMessage(), le) : io;
      }
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      forget(id);
      throw new InterruptedIOException("interrupted while waiting for message " + id);
    }
  }

  private static LdapResult checked(LdapMessage m) throws LdapException {
    LdapResult r = m.op().result();
    if (r == null || !r.resultCode().isSuccess()) {
      throw new LdapException(r != null ? r
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
