package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * An LDAPv3 directory server: entries loaded from LDIF when it starts, in memory or in a durable
 * store ({@link Builder#storage(Path)}), kept encoded so that a search writes them without
 * encoding anything again, served to clients (a thread per connection, up to {@code
 * LdapServerLimits.maxConnections}) through Ferry's codec.
 *
 * <pre>{@code
 * try (LdapServer server = LdapServer.builder()
 *     .suffix("dc=example,dc=com")
 *     .rootDn("cn=admin,dc=example,dc=com", "secret")
 *     .ldif(Path.of("data.ldif"))
 *     .start()) {
 *   try (LdapConnection c = LdapConnection.connect("127.0.0.1", server.port())) {
 *     c.searchAll(SearchRequest.of("dc=example,dc=com", SearchScope.WHOLE_SUBTREE,
 *         Filter.parse("(uid=bjensen)")));
 *   }
 * }
 * }</pre>
 *
 * <p>It listens on the loopback address and a free port unless told otherwise. Without a
 * {@link Builder#schema schema} it is permissive: any attribute and object class is accepted,
 * and attributes match by the standard schema where it defines them, as case-ignore strings
 * otherwise. What clients may do is set by {@link AccessRules}; what they may ask for by
 * {@link LdapServerLimits}.
 */
public final class LdapServer implements AutoCloseable {
  private final Dsa dsa;
  private final ServerSocketChannel listener;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
  private final Thread acceptor;
  private final Thread timeouts;
  private final boolean ldaps;
  private volatile boolean closed;
  private final Duration drainDelay;
  private final Duration drainTimeout;

  private LdapServer(Dsa dsa, ServerSocketChannel listener, boolean ldaps, Duration drainDelay,
      Duration drainTimeout) {
    this.dsa = dsa;
    this.listener = listener;
    this.ldaps = ldaps;
    this.drainDelay = drainDelay;
    this.drainTimeout = drainTimeout;
    this.acceptor = Thread.ofVirtual().name("ldap-accept-" + port()).unstarted(this::accept);
    this.timeouts = Thread.ofVirtual().name("ldap-timeouts-" + port())
        .unstarted(this::watchTimeouts);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The port the server listens on. */
  public int port() {
    try {
      return ((InetSocketAddress) listener.getLocalAddress()).getPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The address the server listens on, as a literal. */
  public String host() {
    try {
      return ((InetSocketAddress) listener.getLocalAddress()).getAddress().getHostAddress();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns {@code ldap://host:port}, or {@code ldaps://host:port} for an ldaps server. */
  public String url() {
    String h = host();
    return (ldaps ? "ldaps://" : "ldap://") + (h.contains(":") ? "[" + h + "]" : h) + ":"
        + port();
  }

  /** Whether clients speak TLS from the first byte ({@link Builder#ldaps}). */
  boolean ldaps() {
    return ldaps;
  }

  /** Returns the number of entries in the directory. */
  public int entryCount() {
    try (Directory.View v = dsa.directory.read()) {
      return (int) v.size();
    }
  }

  /** Returns the number of client connections open now. */
  public int connectionCount() {
    return connections.size();
  }

  /** Returns an entry's user attributes as an LDIF content record, or null if it is absent. */
  public LdifRecord.Entry entry(String dn) {
    try (Directory.View v = dsa.directory.read()) {
      StoredEntry e = v.get(Dn.parse(dn));
      return e == null ? null : new LdifRecord.Entry(e.dnText(), e.userAttributes());
    }
  }

  /** Returns every entry's user attributes, parents before children. */
  public List<LdifRecord.Entry> entries() {
    List<LdifRecord.Entry> out = new ArrayList<>();
    try (Directory.View v = dsa.directory.read()) {
      v.scan("", SearchScope.WHOLE_SUBTREE, null, e -> out.add(new LdifRecord.Entry(
          e.dnText(), e.userAttributes())));
    }
    return out;
  }

  /**
   * Writes every entry of the durable store in {@code storage} as LDIF content records, parents
   * before children, with their operational attributes and hashed passwords, as slapd's
   * {@code slapcat} does: what {@link Builder#importLdif} takes back. It reads one snapshot of
   * the store, beside a server that is running on it or not. Returns the number of entries.
   *
   * @throws IOException if there is no store there, or {@code out} fails
   */
  public static long exportLdif(Path storage, java.io.OutputStream out) throws IOException {
    long n = 0;
    dev.ferry.ldap.LdifWriter writer = dev.ferry.ldap.LdifWriter.of(out); // out stays open
    try (LmdbStore store = LmdbStore.openReadOnly(storage, Schema.standard());
        Store.Read r = store.read()) {
      for (var it = r.entries(null, true, null); it.hasNext(); n++) {
        StoredEntry e = it.next();
        writer.write(new LdifRecord.Entry(e.dnText(), e.allAttributes()));
      }
    }
    writer.flush();
    return n;
  }

  /** The directory's content now, to {@link #restore} later (what the JUnit extension does). */
  Map<String, StoredEntry> snapshot() {
    return dsa.directory.snapshot();
  }

  void restore(Map<String, StoredEntry> snapshot) {
    dsa.directory.restore(snapshot);
  }

  Dsa dsa() {
    return dsa;
  }

  private void accept() {
    while (!closed) {
      SocketChannel channel;
      try {
        channel = listener.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        continue; // one failed accept (a reset before it) does not stop the server
      }
      serve(channel);
    }
  }

  private void serve(SocketChannel channel) {
    InetAddress address;
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      address = ((InetSocketAddress) channel.getRemoteAddress()).getAddress();
    } catch (IOException e) {
      closeQuietly(channel);
      return;
    }
    Connection c = new Connection(dsa, this, channel, address);
    String refused = admit(address);
    if (refused != null) {
      c.disconnect(ResultCode.BUSY, refused);
      return;
    }
    connections.add(c);
    perAddress.merge(address, 1, Integer::sum);
    // A platform thread per connection, not a virtual one: a request that a virtual thread
    // waits for costs a park, a poller wake-up and a carrier hand-off, which measured as half
    // the CPU of a one-client base search (LdapSearchProbe's floor server both ways: 53 against
    // 29 us). maxConnections bounds the threads.
    Thread.ofPlatform().daemon().name("ldap-conn").start(c::serve);
  }

  /**
   * Makes room for a connection from {@code address}, or returns why there is none. Past
   * either limit, the connection that has waited longest for a request without binding or
   * running anything is closed to let the new one in (from the same address, for the limit
   * per address): clients that sent nothing cannot lock out others, and bound clients keep
   * their connections.
   */
  private String admit(InetAddress address) {
    LdapServerLimits limits = dsa.limits;
    int fromAddress = perAddress.getOrDefault(address, 0);
    if (fromAddress >= limits.maxConnectionsPerAddress() && !evict(address)) {
      return "LdapServerLimits.maxConnectionsPerAddress exceeded: " + (fromAddress + 1) + " > "
          + limits.maxConnectionsPerAddress();
    }
    if (connections.size() >= limits.maxConnections() && !evict(null)) {
      return "LdapServerLimits.maxConnections exceeded: " + (connections.size() + 1) + " > "
          + limits.maxConnections();
    }
    return null;
  }

  /** Closes the longest-waiting anonymous idle connection (from {@code address} if not null). */
  private boolean evict(InetAddress address) {
    Connection oldest = null;
    long oldestSince = 0;
    for (Connection c : connections) {
      long since = c.evictableSince();
      if (since != 0 && (address == null || address.equals(c.address))
          && (oldest == null || since - oldestSince < 0)) {
        oldest = c;
        oldestSince = since;
      }
    }
    if (oldest == null) {
      return false;
    }
    oldest.close();
    return true;
  }

  /** Looks at every connection's timeouts a few times per the shortest of them. */
  private void watchTimeouts() {
    long tick = Math.clamp(dsa.limits.shortestTimeoutMillis() / 4, 5, 1000);
    while (!closed) {
      try {
        Thread.sleep(tick);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (Connection c : connections) {
        c.checkTimeouts(now);
      }
    }
  }

  void closed(Connection c) {
    if (connections.remove(c)) {
      perAddress.computeIfPresent(c.address, (a, n) -> n == 1 ? null : n - 1);
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing more to do with it
    }
  }

  /**
   * Stops gracefully (see {@link Builder#drain}): new connections are taken for the drain
   * delay; then the listener closes, each connection is closed with a notice of disconnection
   * as soon as it has nothing in flight (a request that arrives meanwhile is refused so), and
   * one still busy at the drain timeout is closed at once: a client never takes a search cut
   * short for a whole one, since no result done comes.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      Thread.sleep(drainDelay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // asked to hurry: on to the stop
    }
    closed = true;
    timeouts.interrupt();
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing a listener does not fail in a way we could act on
    }
    drainConnections();
    for (Connection c : List.copyOf(connections)) {
      c.close(); // still busy: cut without a notice, which a writer blocked on it would hold up
    }
    try {
      acceptor.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dsa.directory.close();
  }

  /** Closes each connection once it is idle, until none is left or the drain timeout passes. */
  private void drainConnections() {
    connections.forEach(Connection::drain);
    long deadline = System.nanoTime() + drainTimeout.toNanos();
    while (true) {
      for (Connection c : List.copyOf(connections)) {
        if (c.idle()) {
          c.disconnect(ResultCode.UNAVAILABLE, "the server is shutting down");
        }
      }
      if (connections.isEmpty() || System.nanoTime() - deadline >= 0) {
        return;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // asked to hurry: what runs is cut
        return;
      }
    }
  }

  @Override
  public String toString() {
    return "LdapServer[" + url() + ", " + entryCount() + " entries]";
  }

  /** Builds and starts an {@link LdapServer}. */
  public static final class Builder {
    private InetAddress address = InetAddress.getLoopbackAddress();
    private int port;
    private final List<Dn> suffixes = new ArrayList<>();
    private String rootDn;
    private ByteString rootPassword;
    private Schema schema;
    private final List<Source> sources = new ArrayList<>();
    private AccessRules access = AccessRules.DEFAULTS;
    private LdapServerLimits limits = LdapServerLimits.DEFAULTS;
    private SSLContext tls;
    private boolean ldaps;
    private Function<X509Certificate, String> certificateMapper =
        c -> c.getSubjectX500Principal().getName();
    private Clock clock = Clock.systemUTC();
    private PasswordScheme passwordScheme = PasswordScheme.DEFAULT;
    private boolean readOnly;
    private final Map<String, Set<IndexType>> indexes = new LinkedHashMap<>();
    private Path storage;
    private long maxStoreBytes = LmdbStore.DEFAULT_MAX_BYTES;
    private io.opentelemetry.api.OpenTelemetry openTelemetry;
    private Duration drainDelay = Duration.ZERO;
    private Duration drainTimeout = Duration.ofSeconds(30);

    private interface Source {
      List<LdifRecord> read() throws IOException;
    }

    private Builder() {}

    /** Listens on {@code address} (default: loopback). */
    public Builder address(InetAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /**
     * Where the spans of the operations served go (a server span per request, named
     * {@code LDAP <operation>}; LDAP carries no trace context, so each starts a trace); null
     * (the default) for the global one as registered when the server starts.
     */
    public Builder openTelemetry(io.opentelemetry.api.OpenTelemetry otel) {
      this.openTelemetry = otel;
      return this;
    }

    /**
     * How {@link LdapServer#close} stops: new connections are still taken for {@code delay}
     * (default 0: while a load balancer notices), then refused; operations in flight may finish
     * for {@code timeout} (default 30 s), each connection closed with a notice of disconnection
     * once it has none; what still runs then is cut.
     */
    public Builder drain(Duration delay, Duration timeout) {
      if (delay.isNegative() || timeout.isNegative()) {
        throw new IllegalArgumentException("drain durations must not be negative: " + delay
            + ", " + timeout);
      }
      this.drainDelay = delay;
      this.drainTimeout = timeout;
      return this;
    }

    /** Listens on {@code port} (default 0: a free port, see {@link LdapServer#port()}). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Adds a naming context. With suffixes set, only they may be added without a parent;
     * without, any entry whose parent is missing becomes one.
     */
    public Builder suffix(String... dns) {
      for (String dn : dns) {
        suffixes.add(Dn.parse(dn));
      }
      return this;
    }

    /**
     * Sets a DN that binds with {@code password} without an entry and may do everything. The
     * password may be given hashed ({@code {SSHA512}...}, as slapd's {@code olcRootPW}); a
     * clear one is hashed when the server starts and not kept.
     */
    public Builder rootDn(String dn, String password) {
      Dn.parse(dn);
      this.rootDn = dn;
      this.rootPassword = ByteString.encodeUtf8(Objects.requireNonNull(password, "password"));
      return this;
    }

    /** Enforces {@code schema} on every add and modify (the default is permissive). */
    public Builder schema(Schema schema) {
      this.schema = Objects.requireNonNull(schema, "schema");
      return this;
    }

    /** Loads the records of an LDIF file at start. */
    public Builder ldif(Path file) {
      Objects.requireNonNull(file, "file");
      sources.add(() -> LdifReader.readAll(file));
      return this;
    }

    /** Loads LDIF text at start. */
    public Builder ldif(String text) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      sources.add(() -> LdifReader.of(new ByteArrayInputStream(bytes)).readAll());
      return this;
    }

    /** Loads records at start, after the sources given before. */
    public Builder records(List<? extends LdifRecord> records) {
      List<LdifRecord> copy = List.copyOf(records);
      sources.add(() -> copy);
      return this;
    }

    /** Loads LDIF from a class path resource of {@code owner} at start. */
    public Builder ldifResource(Class<?> owner, String name) {
      sources.add(() -> {
        try (InputStream in = owner.getResourceAsStream(name)) {
          if (in == null) {
            throw new IOException("no resource " + name + " beside " + owner.getName());
          }
          return LdifReader.of(in).readAll();
        }
      });
      return this;
    }

    public Builder access(AccessRules access) {
      this.access = Objects.requireNonNull(access, "access");
      return this;
    }

    public Builder limits(LdapServerLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Offers StartTLS with this context's key (and SASL EXTERNAL for client certificates). */
    public Builder tls(SSLContext context) {
      this.tls = Objects.requireNonNull(context, "context");
      this.ldaps = false;
      return this;
    }

    /**
     * Speaks TLS from the first byte ({@code ldaps}, as slapd's {@code ldaps:///} listener)
     * with this context's key, SASL EXTERNAL taking client certificates; StartTLS is then
     * answered that TLS has started already.
     */
    public Builder ldaps(SSLContext context) {
      this.tls = Objects.requireNonNull(context, "context");
      this.ldaps = true;
      return this;
    }

    /**
     * Maps a client certificate to the DN a SASL EXTERNAL bind binds as (default: its subject,
     * which must name an entry or the root DN).
     */
    public Builder certificateMapper(Function<X509Certificate, String> mapper) {
      this.certificateMapper = Objects.requireNonNull(mapper, "mapper");
      return this;
    }

    /**
     * Hashes the passwords clients and LDIF files give in this scheme (default: {@link
     * PasswordScheme#DEFAULT}); values already hashed in a scheme the server checks are kept.
     */
    public Builder passwordScheme(PasswordScheme scheme) {
      this.passwordScheme = Objects.requireNonNull(scheme, "scheme");
      return this;
    }

    /**
     * Refuses every change clients ask for (add, delete, modify, modify DN, password modify:
     * unwillingToPerform), the root DN's too; the LDIF is still loaded at start.
     */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /**
     * Indexes {@code attribute} (and its subtypes) for the filters {@code types} name, as
     * slapd's {@code olcDbIndex}: {@code index("uid", EQUALITY)} is {@code uid eq}. Every
     * search whose filter an index can narrow (an item on an indexed attribute, an and with one
     * such part, an or of them) looks at the entries its indexes name instead of its whole
     * scope; an anonymous search that cannot is refused past {@link
     * LdapServerLimits#maxUnindexedEntriesAnonymous}.
     *
     * @throws IllegalArgumentException at {@link #start} for a password attribute or a type
     *     without the rule the index needs
     */
    public Builder index(String attribute, IndexType... types) {
      Objects.requireNonNull(attribute, "attribute");
      if (types.length == 0) {
        throw new IllegalArgumentException("no index types for " + attribute);
      }
      indexes.computeIfAbsent(attribute, a -> EnumSet.noneOf(IndexType.class))
          .addAll(List.of(types));
      return this;
    }

    /**
     * Keeps the entries in a durable store in {@code directory} (made if missing): LMDB, as
     * slapd's back-mdb. A change is answered once it is on disk, and a search reads entries
     * where the store keeps them. The LDIF sources are loaded only into an empty store. Without
     * this, entries live in memory and are lost when the server stops.
     *
     * <p>The JVM must open {@code java.nio} and export {@code sun.nio.ch} to the store's
     * library: {@code --add-opens java.base/java.nio=ALL-UNNAMED --add-exports
     * java.base/sun.nio.ch=ALL-UNNAMED} (on the module path, {@code =lmdbjava}).
     *
     * @param maxBytes the most the store may hold ({@value LmdbStore#DEFAULT_MAX_BYTES} if
     *     not given): address space reserved, not disk taken
     */
    public Builder storage(Path directory, long maxBytes) {
      this.storage = Objects.requireNonNull(directory, "directory");
      if (maxBytes < 1 << 20) {
        throw new IllegalArgumentException("maxBytes < 1 MiB: " + maxBytes);
      }
      this.maxStoreBytes = maxBytes;
      return this;
    }

    /** {@link #storage(Path, long)} with the default size. */
    public Builder storage(Path directory) {
      return storage(directory, LmdbStore.DEFAULT_MAX_BYTES);
    }

    Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Loads the LDIF and starts listening.
     *
     * @throws IOException if the port cannot be bound or an LDIF source cannot be read
     * @throws IllegalArgumentException if a record cannot be applied, naming it and why
     */
    public LdapServer start() throws IOException {
      Dsa dsa = dsa();
      try {
        if (storage == null || isEmpty(dsa)) {
          Loader loader = new Loader(dsa, creator());
          for (Source s : sources) {
            for (LdifRecord r : s.read()) {
              loader.load(r);
            }
          }
          loader.finish();
        }
        ServerSocketChannel listener = ServerSocketChannel.open();
        try {
          listener.bind(new InetSocketAddress(address, port), 128);
        } catch (IOException e) {
          listener.close();
          throw e;
        }
        LdapServer server = new LdapServer(dsa, listener, ldaps, drainDelay, drainTimeout);
        server.acceptor.start();
        server.timeouts.start();
        return server;
      } catch (IOException | RuntimeException e) {
        dsa.directory.close();
        throw e;
      }
    }

    /**
     * Adds the records of an LDIF file to the durable store set by {@link #storage} without
     * serving it: many records to a commit, as slapd's {@code slapadd}. Returns the number of
     * records applied; the store is closed when it returns.
     *
     * @throws IllegalStateException if no store is set
     * @throws IllegalArgumentException if a record cannot be applied, naming it and why (the
     *     records before it are kept)
     */
    public long importLdif(Path ldif) throws IOException {
      if (storage == null) {
        throw new IllegalStateException("importLdif needs a durable store: storage(directory)");
      }
      Dsa dsa = dsa();
      try (Directory d = dsa.directory; LdifReader reader = LdifReader.of(
          java.nio.file.Files.newInputStream(ldif))) {
        Loader loader = new Loader(dsa, creator());
        for (LdifRecord r; (r = reader.next()) != null; ) {
          loader.load(r);
        }
        return loader.finish();
      }
    }

    private String creator() {
      return rootDn == null ? "" : Dn.parse(rootDn).toString();
    }

    private static boolean isEmpty(Dsa dsa) {
      try (Directory.View v = dsa.directory.read()) {
        return v.size() == 0;
      }
    }

    private Dsa dsa() throws IOException {
      boolean checking = schema != null;
      Schema s = checking ? schema : Schema.standard();
      Indexes x = new Indexes(s, indexes);
      Store store = storage == null ? new MemoryStore()
          : LmdbStore.open(storage, maxStoreBytes, s, x);
      return new Dsa(s, checking, limits, suffixes, rootDn, rootPassword, access, tls,
          certificateMapper, clock, passwordScheme, readOnly, x, store,
          dev.ferry.ldap.internal.LdapSpans.orGlobal(openTelemetry, "dev.ferry.ldap.server"));
    }
  }
}
