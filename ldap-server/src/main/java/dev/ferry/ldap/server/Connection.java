package dev.ferry.ldap.server;

import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.SortControl;
import dev.ferry.ldap.VirtualListView;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.ExtendedResponse;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.internal.LdapSpans;
import io.opentelemetry.api.trace.Span;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.channels.SocketChannel;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocket;

/**
 * One client connection: a platform thread reads request PDUs, framed and decoded by Ferry's
 * codec, and performs them in order. Searches below one entry run on a virtual thread of their
 * own, so that the client can abandon them and send other requests meanwhile (RFC 4511 section
 * 4.11); a base-object search, the common read, is answered on the reading thread.
 *
 * <p>The connection is anonymous until a bind succeeds; a failed bind makes it anonymous
 * again (RFC 4513 section 5). Requests are limited to {@link LdapServerLimits} sizes, the
 * anonymous one until a bind succeeds.
 *
 * <p>The server looks at every connection a few times per shortest timeout ({@link
 * #checkTimeouts}): one waiting for a request with nothing running is idle, one whose request
 * has begun to arrive is reading, and one whose response the peer does not take is writing;
 * each state has its own limit, shorter before a bind. Past it the connection is closed.
 */
final class Connection {
  static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";
  private static final int SEARCH_REQUEST = 0x63;
  private static final AtomicLong COOKIES = new AtomicLong();

  private final Dsa dsa;
  private final LdapServer server;
  final SocketChannel channel;
  final InetAddress address;
  private final Arrivals arrivals = new Arrivals();
  private volatile long awaitingSince; // nanoTime the wait for the next request began; 0: none
  private volatile long lastSearchEnd = System.nanoTime();
  private final Outbound out;
  private final ByteStringBuilder scratch = new ByteStringBuilder(256);
  private final BerWriter writer = new BerWriter();
  private final ChannelInput channelInput;
  private final Map<Integer, Search> running = new ConcurrentHashMap<>();
  private final Map<ByteString, PagedState> paged = new LinkedHashMap<>();
  private final Operations operations;
  private InputStream in;
  private BerReader reader;
  private long consumedBefore; // stream offset where the current reader started
  private boolean boundLimits;
  private volatile String boundDn = "";
  private volatile String boundKey = "";
  private volatile SSLSocket tlsSocket;
  private volatile boolean closed;
  private volatile boolean draining;
  // The keys of the last DNs searched from, so that repeated reads of the same entries skip
  // parsing and normalizing their DN: most of what a base search would otherwise allocate.
  private final String[] recentDns = new String[8];
  private final String[] recentKeys = new String[8];
  private int recentNext;

  Connection(Dsa dsa, LdapServer server, SocketChannel channel, InetAddress address) {
    this.dsa = dsa;
    this.server = server;
    this.channel = channel;
    this.address = address;
    this.out = new Outbound(channel);
    this.channelInput = new ChannelInput(channel, arrivals);
    this.in = channelInput;
    this.operations = new Operations(dsa, this);
    // from its accept on it waits for a first request: idle (and so the first to make room
    // at maxConnections) before its thread has started reading
    this.awaitingSince = System.nanoTime();
  }

  // --- state the operations read ----------------------------------------------------------------

  String boundDn() {
    return boundDn;
  }

  String boundKey() {
    return boundKey;
  }

  boolean isRoot() {
    return dsa.access.isRoot(boundKey);
  }

  /** True if the client may see the entry's passwords. */
  boolean canSeeSecrets(StoredEntry e) {
    return dsa.access.canSeeSecrets(boundKey, e);
  }

  /** True if the client may read the entry: otherwise it is not there for it. */
  boolean canSee(StoredEntry e) {
    return dsa.access.canRead(boundKey, e);
  }

  /** Returns the key of a DN, from the recent ones if it was met lately. */
  String key(String dn) throws OperationException {
    synchronized (recentDns) {
      for (int i = 0; i < recentDns.length; i++) {
        if (dn.equals(recentDns[i])) {
          return recentKeys[i];
        }
      }
    }
    String key = dsa.schema.normalize(Updates.parseDn(dn));
    synchronized (recentDns) {
      recentDns[recentNext] = dn;
      recentKeys[recentNext] = key;
      recentNext = (recentNext + 1) % recentDns.length;
    }
    return key;
  }

  SSLSocket tls() {
    return tlsSocket;
  }

  int runningSearches() {
    return running.size();
  }

  /** Sets who the connection is bound as; "" for anonymous. */
  void bound(String dn, String key) {
    boundDn = dn;
    boundKey = key;
  }

  // --- the read loop ---------------------------------------------------------------------------

  /** Reads and performs requests until the client unbinds or the connection breaks. */
  void serve() {
    try {
      if (server.ldaps()) {
        wrapTls();
      }
      newReader();
      while (!closed && awaitRequest()) {
        long offset = consumedBefore + reader.byteOffset();
        ByteString pdu = reader.readRawElement();
        LdapMessage m;
        try {
          m = LdapCodec.decode(pdu, offset, limits());
        } catch (BerException e) {
          if (e.isFatal() || !refuse(pdu, e)) {
            throw e;
          }
          continue;
        }
        if (draining) { // the server is stopping: this request is not performed
          disconnect(ResultCode.UNAVAILABLE, "the server is shutting down");
          break;
        }
        if (!perform(m)) {
          break;
        }
      }
    } catch (BerException e) {
      disconnect(ResultCode.PROTOCOL_ERROR, describe(e));
    } catch (IOException | RuntimeException e) {
      // the peer went away, or a bug: either way this connection is over
    } finally {
      close();
    }
  }

  /** Waits for the whole of the next request; returns false at the end of the stream. */
  private boolean awaitRequest() throws IOException {
    arrivals.mark(tlsSocket == null && channelInput.buffered() > 0);
    awaitingSince = System.nanoTime();
    try {
      return reader.hasNextElement(); // frames the whole PDU
    } finally {
      awaitingSince = 0;
    }
  }

  /**
   * Answers a request that was framed whole but refused by a decoding limit that leaves the
   * connection usable (a search filter over {@code LdapLimits}' filter limits) with
   * adminLimitExceeded; returns false if the request is not one that can be answered so.
   */
  private boolean refuse(ByteString pdu, BerException e) throws IOException {
    int id;
    int op;
    try {
      BerReader r = BerReader.of(pdu);
      r.readStartSequence();
      id = r.readInteger();
      op = r.peekType();
    } catch (IOException notEvenThat) {
      return false;
    }
    if (op != SEARCH_REQUEST) {
      return false;
    }
    sendDone(id, LdapResult.of(ResultCode.ADMIN_LIMIT_EXCEEDED, e.getMessage()), List.of());
    return true;
  }

  // --- timeouts --------------------------------------------------------------------------------

  /** Closes the connection if it has been idle, reading or writing too long at {@code now}. */
  void checkTimeouts(long now) {
    LdapServerLimits limits = dsa.limits;
    boolean bound = !boundKey.isEmpty();
    long waiting = awaitingSince;
    if (waiting != 0) {
      long first = arrivals.firstNanos();
      if (first != 0) {
        expireAfter(now - first, bound ? limits.readTimeoutMillis()
            : limits.readTimeoutMillisAnonymous());
      } else if (running.isEmpty()) {
        long since = lastSearchEnd - waiting > 0 ? lastSearchEnd : waiting;
        expireAfter(now - since, bound ? limits.idleTimeoutMillis()
            : limits.idleTimeoutMillisAnonymous());
      }
    }
    long writing = out.writingSince();
    if (writing != 0) {
      expireAfter(now - writing, limits.writeTimeoutMillis());
    }
  }

  private void expireAfter(long elapsedNanos, long limitMillis) {
    if (elapsedNanos > TimeUnit.MILLISECONDS.toNanos(limitMillis)) {
      close();
    }
  }

  /** Whether the connection waits for a request with nothing running: drain may close it. */
  boolean idle() {
    return awaitingSince != 0 && running.isEmpty();
  }

  /** From now on a request that arrives is refused: the connection is closed with a notice. */
  void drain() {
    draining = true;
  }

  /**
   * Returns since when this connection has waited for a request (nanoTime) if it may make
   * room for another: it has not bound and runs nothing; otherwise 0.
   */
  long evictableSince() {
    long waiting = awaitingSince;
    return boundKey.isEmpty() && running.isEmpty() ? waiting : 0;
  }

  /** Names the server's own limit where the BER layer hit the PDU size it was given. */
  private String describe(BerException e) {
    if (!"BerLimits.maxPduBytes".equals(e.limitName())) {
      return e.getMessage();
    }
    String name = boundLimits ? "LdapServerLimits.maxRequestBytes"
        : "LdapServerLimits.maxRequestBytesAnonymous";
    return name + " exceeded: " + e.actualValue() + " > " + e.limitValue() + " at byte "
        + (consumedBefore + e.byteOffset());
  }

  private dev.ferry.ldap.LdapLimits limits() {
    return boundLimits ? dsa.boundLimits : dsa.anonymousLimits;
  }

  private void newReader() {
    if (reader != null) {
      consumedBefore += reader.byteOffset();
    }
    reader = BerReader.of(in, BerRules.LDAP, limits().ber());
  }

  /** Returns false when the connection should close (unbind). */
  private boolean perform(LdapMessage m) throws IOException {
    int id = m.messageId();
    switch (m.op()) {
      case ProtocolOp.UnbindRequest u -> {
        return false;
      }
      case ProtocolOp.AbandonRequest a -> {
        Search s = running.get(a.messageId());
        if (s != null) {
          s.abandon();
        }
      }
      case SearchRequest s -> search(id, s, m.controls());
      case ProtocolOp.BindRequest b -> {
        answer(id, b, () -> operations.bind(b));
        boolean nowBound = !boundKey.isEmpty();
        if (nowBound != boundLimits) { // a bound client may send larger requests
          boundLimits = nowBound;
          newReader();
        }
      }
      case ProtocolOp.ExtendedRequest e -> extended(id, e);
      default -> {
        if (!isRequest(m.op())) {
          disconnect(ResultCode.PROTOCOL_ERROR, "unexpected " + m.op().getClass()
              .getSimpleName() + " from a client");
          return false;
        }
        answer(id, m.op(), () -> operations.update(m));
      }
    }
    return true;
  }

  /** Sends what {@code operation} answers {@code request}, in a span of its own. */
  private void answer(int id, ProtocolOp request, Supplier<ProtocolOp> operation)
      throws IOException {
    Span span = dsa.spans.startServer(request, address);
    try {
      ProtocolOp response = operation.get();
      send(LdapMessage.of(id, response), true);
      LdapSpans.endServer(span, resultCode(response.result()), -1);
    } catch (IOException | RuntimeException e) {
      LdapSpans.fail(span, e);
      throw e;
    }
  }

  private static int resultCode(LdapResult r) {
    return r == null ? ResultCode.OTHER.value() : r.resultCode().value();
  }

  /** Runs {@code s} in its span, which ends with the result (or with none, abandoned). */
  private void run(Search s, Span span) throws IOException {
    try {
      LdapResult result = s.run();
      if (result == null) {
        span.end();
      } else {
        LdapSpans.endServer(span, result.resultCode().value(), s.returned());
      }
    } catch (IOException | RuntimeException e) {
      LdapSpans.fail(span, e);
      throw e;
    }
  }

  private static boolean isRequest(ProtocolOp op) {
    return op instanceof ProtocolOp.AddRequest || op instanceof ProtocolOp.DeleteRequest
        || op instanceof ProtocolOp.ModifyRequest || op instanceof ProtocolOp.ModifyDnRequest
        || op instanceof ProtocolOp.CompareRequest;
  }

  private void search(int id, SearchRequest request, List<Control> controls) throws IOException {
    Span span = dsa.spans.startServer(request, address);
    LdapResult refused = operations.checkControls(controls, true);
    if (refused == null && request.scope() != SearchScope.BASE_OBJECT
        && running.size() >= dsa.limits.maxOperationsPerConnection()) {
      refused = LdapResult.of(ResultCode.BUSY, "LdapServerLimits.maxOperationsPerConnection"
          + " exceeded: " + (running.size() + 1) + " > "
          + dsa.limits.maxOperationsPerConnection());
    }
    if (refused != null) {
      sendDone(id, refused, List.of());
      LdapSpans.endServer(span, refused.resultCode().value(), 0);
      return;
    }
    Search s = new Search(dsa, this, id, request, controls);
    if (request.scope() == SearchScope.BASE_OBJECT) {
      run(s, span);
      return;
    }
    running.put(id, s);
    Thread.ofVirtual().name("ldap-search-" + id).start(() -> {
      try {
        run(s, span);
      } catch (IOException | RuntimeException e) {
        close();
      } finally {
        lastSearchEnd = System.nanoTime();
        running.remove(id);
      }
    });
  }

  private void extended(int id, ProtocolOp.ExtendedRequest e) throws IOException {
    if (ProtocolOp.ExtendedRequest.START_TLS.equals(e.name())) {
      startTls(id);
      return;
    }
    send(LdapMessage.of(id, operations.extended(e)), true);
  }

  private void startTls(int id) throws IOException {
    LdapResult refused = dsa.tls == null
        ? LdapResult.of(ResultCode.UNAVAILABLE, "StartTLS is not configured on this server")
        : tlsSocket != null ? LdapResult.of(ResultCode.OPERATIONS_ERROR, "TLS already started")
        : !running.isEmpty() || channelInput.buffered() > 0
        ? LdapResult.of(ResultCode.OPERATIONS_ERROR, "other operations are outstanding")
        : null;
    String oid = ProtocolOp.ExtendedRequest.START_TLS;
    if (refused != null) {
      send(LdapMessage.of(id, new ExtendedResponse(refused, oid, null)), true);
      return;
    }
    send(LdapMessage.of(id, new ExtendedResponse(LdapResult.of(ResultCode.SUCCESS), oid,
        null)), true);
    wrapTls();
  }

  /** Speaks TLS from here on: after a StartTLS, or from the first byte on an ldaps server. */
  private void wrapTls() throws IOException {
    SSLSocket tls = (SSLSocket) dsa.tls.getSocketFactory().createSocket(channel.socket(),
        null, channel.socket().getPort(), true);
    tls.setUseClientMode(false);
    tls.setWantClientAuth(true);
    arrivals.mark(false); // the handshake is timed as an idle wait: its bytes bypass channelInput
    awaitingSince = System.nanoTime();
    try {
      tls.startHandshake();
    } finally {
      awaitingSince = 0;
    }
    tlsSocket = tls;
    out.useTls(tls.getOutputStream());
    in = new BufferedInputStream(arrivals.watch(tls.getInputStream()), 16 * 1024);
    newReader();
  }

  // --- writing ---------------------------------------------------------------------------------

  /** Encodes and writes a message, flushing if asked. */
  void send(LdapMessage m, boolean flush) throws IOException {
    out.lock.lock();
    try {
      LdapCodec.encode(m, scratch, writer);
      scratch.writeTo(out.stream());
      scratch.clear();
      if (flush) {
        out.flush();
      }
    } finally {
      out.lock.unlock();
    }
  }

  void sendDone(int id, LdapResult result, List<Control> controls) throws IOException {
    send(new LdapMessage(id, new ProtocolOp.SearchResultDone(result), controls), true);
  }

  void writeEntry(int id, StoredEntry e, Selection selection, boolean typesOnly,
      boolean children, boolean secrets) throws IOException {
    out.lock.lock();
    try {
      EntryWriter.write(out, id, e, selection, typesOnly, children, secrets);
    } finally {
      out.lock.unlock();
    }
  }

  /** Sends a notice of disconnection (RFC 4511 section 4.4.1), then closes. */
  void disconnect(ResultCode code, String message) {
    try {
      send(LdapMessage.of(0, new ExtendedResponse(LdapResult.of(code, message),
          NOTICE_OF_DISCONNECTION, null)), true);
    } catch (IOException ignored) {
      // the peer may be gone already; closing is what matters
    }
    close();
  }

  void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Search s : running.values()) {
      s.abandon();
    }
    try {
      if (tlsSocket != null) {
        tlsSocket.close();
      }
      channel.close();
    } catch (IOException ignored) {
      // nothing more can be done with this socket
    }
    server.closed(this);
  }

  // --- paged searches --------------------------------------------------------------------------

  /** Where a paged search stopped, kept between its requests. */
  static final class PagedState {
    /** The key of the last entry sent, for a walk of the scope in key order. */
    String lastKey;
    /** The id of the last entry sent, for a walk of candidates in id order. */
    long lastId;
    /** Whether the pages walk candidates; null before the first page. */
    Boolean indexed;
    /** A sorted search's entries, and where the next page starts among them. */
    List<String> sorted;
    int position;
    int returned;
    boolean done;
    ByteString cookie;
  }

  /** Returns the state a cookie names, or a new one for an empty cookie. */
  PagedState pagedState(ByteString cookie) throws OperationException {
    if (cookie.size() == 0) {
      return new PagedState();
    }
    synchronized (paged) {
      PagedState s = paged.get(cookie);
      if (s == null) {
        throw new OperationException(ResultCode.UNWILLING_TO_PERFORM,
            "paged results cookie is invalid");
      }
      return s;
    }
  }

  /** Keeps a paged search's state; returns its cookie. */
  ByteString keep(PagedState state) {
    synchronized (paged) {
      if (state.cookie == null) {
        state.cookie = ByteString.encodeUtf8(Long.toHexString(COOKIES.incrementAndGet()));
        if (paged.size() >= dsa.limits.maxPagedSearchesPerConnection()) {
          paged.remove(paged.keySet().iterator().next()); // the oldest goes
        }
        paged.put(state.cookie, state);
      }
      return state.cookie;
    }
  }

  void forget(PagedState state) {
    if (state.cookie != null) {
      synchronized (paged) {
        paged.remove(state.cookie);
      }
    }
  }

  /** True for the controls a search knows: paged results, sort and virtual list view. */
  static boolean isSearchControl(Control c) {
    return PagedResults.OID.equals(c.oid()) || SortControl.OID.equals(c.oid())
        || VirtualListView.OID.equals(c.oid());
  }
}
