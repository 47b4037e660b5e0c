package dev.ferry.spring.boot.ldap;

import static dev.ferry.spring.boot.PropertyChecks.positive;

import dev.ferry.ldap.LdapPool;
import dev.ferry.spring.boot.PropertyChecks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.Delimiter;
import org.springframework.util.unit.DataSize;

/**
 * The {@code ferry.ldap.*} properties: an embedded directory ({@code ferry.ldap.embedded.*},
 * named as Spring Boot's {@code spring.ldap.embedded.*} are) and a pool of client connections
 * ({@code ferry.ldap.pool.*}). A value out of range fails start-up, naming the property.
 */
@ConfigurationProperties("ferry.ldap")
public class LdapProperties {
  /** Ferry's directory server in the application, for development and tests. */
  private Embedded embedded = new Embedded();
  /** A pool of connections to directories, as an {@code LdapPool} bean. */
  private Pool pool = new Pool();

  public Embedded getEmbedded() {
    return embedded;
  }

  public void setEmbedded(Embedded embedded) {
    this.embedded = embedded;
  }

  public Pool getPool() {
    return pool;
  }

  public void setPool(Pool pool) {
    this.pool = pool;
  }

  /** How a listener or a client speaks TLS. */
  public enum TlsMode {
    /** TLS from the first byte ({@code ldaps://}). */
    LDAPS,
    /** Plain LDAP, TLS after the StartTLS operation. */
    START_TLS
  }

  /** {@code ferry.ldap.embedded.*}: there is an embedded directory when base-dn is set. */
  public static class Embedded {
    /** The naming contexts the directory holds; without one there is no embedded directory. */
    @Delimiter(Delimiter.NONE)
    private List<String> baseDn = new ArrayList<>();
    /** The port to listen on; 0 for a free one. Published as {@code local.ldap.port}. */
    private int port;
    /** The address to listen on. */
    private String host = "127.0.0.1";
    /**
     * LDIF to load at start, as resource locations; {@code classpath:schema.ldif} is loaded
     * if it exists (as Spring Boot's embedded directory does), a location named here must.
     */
    private List<String> ldif = new ArrayList<>();
    /** The root DN that may do everything, and its password. */
    private Credential credential = new Credential();
    /** Whether clients that have not bound may read. */
    private boolean anonymousRead = true;
    /** Refuses every change. */
    private boolean readOnly;
    /** TLS from a Spring Boot SSL bundle (its key and chain; its trust for client certs). */
    private Tls ssl = new Tls();
    /** Where the directory is kept: in memory (lost when the application stops) or on disk. */
    private Store store = new Store();

    public List<String> getBaseDn() {
      return baseDn;
    }

    public void setBaseDn(List<String> baseDn) {
      this.baseDn = baseDn;
    }

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      this.port = PropertyChecks.port(port);
    }

    public String getHost() {
      return host;
    }

    public void setHost(String host) {
      this.host = host;
    }

    public List<String> getLdif() {
      return ldif;
    }

    public void setLdif(List<String> ldif) {
      this.ldif = ldif;
    }

    public Credential getCredential() {
      return credential;
    }

    public void setCredential(Credential credential) {
      this.credential = credential;
    }

    public boolean isAnonymousRead() {
      return anonymousRead;
    }

    public void setAnonymousRead(boolean anonymousRead) {
      this.anonymousRead = anonymousRead;
    }

    public boolean isReadOnly() {
      return readOnly;
    }

    public void setReadOnly(boolean readOnly) {
      this.readOnly = readOnly;
    }

    public Tls getSsl() {
      return ssl;
    }

    public void setSsl(Tls ssl) {
      this.ssl = ssl;
    }

    public Store getStore() {
      return store;
    }

    public void setStore(Store store) {
      this.store = store;
    }
  }

  /**
   * {@code ferry.ldap.embedded.store.*}: the embedded directory on disk, as {@code ferry ldap
   * serve --data} keeps it (LMDB; each change on disk before it is answered). The LDIF is then
   * loaded only into an empty store, so that changes survive a restart.
   */
  public static class Store {
    /** The folder of a durable store (made if missing); none to keep the directory in memory. */
    private Path path;
    /** The most the store may hold: address space reserved, not disk taken. */
    private DataSize maxSize = DataSize.ofGigabytes(16);

    public Path getPath() {
      return path;
    }

    public void setPath(Path path) {
      this.path = path;
    }

    public DataSize getMaxSize() {
      return maxSize;
    }

    public void setMaxSize(DataSize maxSize) {
      if (maxSize.toBytes() < 1 << 20) {
        throw new IllegalArgumentException("expected at least 1MB, got " + maxSize);
      }
      this.maxSize = maxSize;
    }
  }

  /** A DN and its password. */
  public static class Credential {
    /** The DN. */
    private String username;
    /** Its password. */
    private String password;

    public String getUsername() {
      return username;
    }

    public void setUsername(String username) {
      this.username = username;
    }

    public String getPassword() {
      return password;
    }

    public void setPassword(String password) {
      this.password = password;
    }
  }

  /** TLS from an SSL bundle ({@code spring.ssl.bundle.*}). */
  public static class Tls {
    /** The SSL bundle's name; none for plain LDAP. */
    private String bundle;
    /** LDAPS from the first byte, or StartTLS on a plain connection. */
    private TlsMode mode = TlsMode.LDAPS;

    public String getBundle() {
      return bundle;
    }

    public void setBundle(String bundle) {
      this.bundle = bundle;
    }

    public TlsMode getMode() {
      return mode;
    }

    public void setMode(TlsMode mode) {
      this.mode = mode;
    }
  }

  /**
   * {@code ferry.ldap.pool.*}: there is an {@code LdapPool} bean when urls are set, or when
   * there is an embedded directory (whose URL is then the pool's).
   */
  public static class Pool {
    /** The servers as {@code ldap://} or {@code ldaps://} URLs, in failover order. */
    private List<String> urls = new ArrayList<>();
    /** How new connections choose among the servers. */
    private LdapPool.Strategy strategy = LdapPool.Strategy.FAILOVER;
    /** The DN and password each connection binds with; anonymous without. */
    private Credential credential = new Credential();
    /** The name the pool's meters are tagged with ({@code pool}). */
    private String name = "default";
    /** Connections kept open when idle. */
    private int min = 1;
    /** Connections open at most. */
    private int max = 8;
    /** How long a caller waits for a free connection. */
    private Duration checkoutTimeout = Duration.ofSeconds(10);
    /** Connections older than this are closed when they come back. */
    private Duration maxAge = Duration.ofMinutes(30);
    /** Connections idle longer than this are closed, down to the minimum. */
    private Duration maxIdle = Duration.ofMinutes(5);
    /** How long a connect or an operation may take. */
    private Duration timeout = Duration.ofSeconds(30);
    /**
     * TLS: the SSL bundle whose trust checks the servers ({@code ldaps://} URLs speak TLS
     * from the first byte; mode {@code start-tls} sends StartTLS on plain ones).
     */
    private Tls ssl = new Tls();

    public List<String> getUrls() {
      return urls;
    }

    public void setUrls(List<String> urls) {
      this.urls = urls;
    }

    public LdapPool.Strategy getStrategy() {
      return strategy;
    }

    public void setStrategy(LdapPool.Strategy strategy) {
      this.strategy = strategy;
    }

    public Credential getCredential() {
      return credential;
    }

    public void setCredential(Credential credential) {
      this.credential = credential;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getMin() {
      return min;
    }

    public void setMin(int min) {
      if (min < 0) {
        throw new IllegalArgumentException("expected 0 or more, got " + min);
      }
      this.min = min;
    }

    public int getMax() {
      return max;
    }

    public void setMax(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("expected 1 or more, got " + max);
      }
      this.max = max;
    }

    public Duration getCheckoutTimeout() {
      return checkoutTimeout;
    }

    public void setCheckoutTimeout(Duration checkoutTimeout) {
      this.checkoutTimeout = positive(checkoutTimeout);
    }

    public Duration getMaxAge() {
      return maxAge;
    }

    public void setMaxAge(Duration maxAge) {
      this.maxAge = positive(maxAge);
    }

    public Duration getMaxIdle() {
      return maxIdle;
    }

    public void setMaxIdle(Duration maxIdle) {
      this.maxIdle = positive(maxIdle);
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = positive(timeout);
    }

    public Tls getSsl() {
      return ssl;
    }

    public void setSsl(Tls ssl) {
      this.ssl = ssl;
    }
  }

}
