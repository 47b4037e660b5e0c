package dev.ferry.spring.boot.client;

import static dev.ferry.spring.boot.PropertyChecks.positive;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * One named client, under {@code ferry.clients.<name>}: the bean {@code <name>} is a typed
 * JAX-WS port where {@link #getServiceInterface() service-interface} is set, else a
 * {@link SoapService}. A value out of range fails start-up, naming the property.
 */
public class ClientProperties {
  /** The service's address ({@code http} or {@code https}). Required. */
  private URI address;
  /** The service endpoint interface ({@code @WebService}) of a typed port. */
  private Class<?> serviceInterface;
  /** How long to wait for a connection. */
  private Duration connectTimeout = Duration.ofSeconds(10);
  /** How long a call may go without sending or receiving a byte. */
  private Duration timeout = Duration.ofSeconds(60);
  /** The SSL bundle of {@code https} calls: the trust, and a client certificate if it has a key. */
  private String sslBundle;
  /** HTTP Basic user. */
  private String username;
  /** HTTP Basic password. */
  private String password;
  /** Whether a typed port sends binaries as MTOM attachments. */
  private boolean mtom;
  /** WS-Security of the messages sent (needs {@code ferry-wssecurity} on the class path). */
  private WsSecurity wsSecurity = new WsSecurity();

  public URI getAddress() {
    return address;
  }

  public void setAddress(URI address) {
    String scheme = address.getScheme() == null ? ""
        : address.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || address.getHost() == null) {
      throw new IllegalArgumentException("expected an http:// or https:// URL with a host, got "
          + address);
    }
    this.address = address;
  }

  public Class<?> getServiceInterface() {
    return serviceInterface;
  }

  public void setServiceInterface(Class<?> serviceInterface) {
    if (!serviceInterface.isInterface()
        || !serviceInterface.isAnnotationPresent(jakarta.jws.WebService.class)) {
      throw new IllegalArgumentException(serviceInterface.getName() + " is not an interface"
          + " annotated @WebService");
    }
    this.serviceInterface = serviceInterface;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = positive(connectTimeout);
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = positive(timeout);
  }

  public String getSslBundle() {
    return sslBundle;
  }

  public void setSslBundle(String sslBundle) {
    this.sslBundle = sslBundle;
  }

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

  public boolean isMtom() {
    return mtom;
  }

  public void setMtom(boolean mtom) {
    this.mtom = mtom;
  }

  public WsSecurity getWsSecurity() {
    return wsSecurity;
  }

  public void setWsSecurity(WsSecurity wsSecurity) {
    this.wsSecurity = wsSecurity;
  }

  /** How a WS-Security UsernameToken carries its password. */
  public enum PasswordType { TEXT, DIGEST }

  /** The WS-Security a client's messages get: a UsernameToken and a Timestamp. */
  public static class WsSecurity {
    /** The UsernameToken's user; none if not set. */
    private String username;
    /** The UsernameToken's password. */
    private String password;
    /** How the password goes: as text (over TLS) or as a digest. */
    private PasswordType passwordType = PasswordType.DIGEST;
    /** A Timestamp valid for this long; none if not set. */
    private Duration timestamp;

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

    public PasswordType getPasswordType() {
      return passwordType;
    }

    public void setPasswordType(PasswordType passwordType) {
      this.passwordType = passwordType;
    }

    public Duration getTimestamp() {
      return timestamp;
    }

    public void setTimestamp(Duration timestamp) {
      this.timestamp = timestamp == null ? null : positive(timestamp);
    }

    /** Whether anything is asked for. */
    public boolean isEnabled() {
      return username != null || timestamp != null;
    }
  }
}
