package dev.ferry.client;

import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.Objects;
import java.util.Set;

/**
 * One call of a {@link SoapClient}: where it goes, what it sends and how: the SOAPAction, extra
 * HTTP headers (such as {@code Authorization}), and a timeout of its own.
 *
 * <pre>{@code
 * SoapRequest request = SoapRequest.builder(uri, payload)
 *     .soapAction("urn:echo")
 *     .basicAuth("alice", "wonderland")
 *     .header("X-Request-Id", "42")
 *     .timeout(Duration.ofSeconds(5))
 *     .build();
 * try (SoapResponse reply = client.call(request)) { ... }
 * }</pre>
 *
 * Immutable, but its payload is written once: a request whose payload forwards a received
 * message can be sent once only.
 */
public final class SoapRequest {
  /** RFC 6750's b64token, compiled once: a bearer token is set on every call that sends one. */
  private static final Pattern TOKEN68 = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

  /** Headers the client writes itself; setting one is a mistake the builder refuses. */
  private static final Set<String> RESERVED = Set.of("host", "content-length",
      "transfer-encoding", "content-type", "connection", "keep-alive", "upgrade", "te",
      "trailer", "proxy-connection", "expect", "soapaction");

  /** One extra header line. */
  public record Header(String name, String value) {}

  private final URI uri;
  private final Payload payload;
  private final String soapAction;
  private final List<Header> headers;
  private final Duration timeout;
  private final MessageGuard guard;
  private final String service;
  private final String operation;

  private SoapRequest(Builder b) {
    this.uri = b.uri;
    this.payload = b.payload;
    this.soapAction = b.soapAction;
    this.headers = List.copyOf(b.headers);
    this.timeout = b.timeout;
    this.guard = b.guard;
    this.service = b.service;
    this.operation = b.operation;
  }

  /** Starts a request of {@code payload} to {@code uri} (http or https). */
  public static Builder builder(URI uri, Payload payload) {
    return new Builder(uri, payload);
  }

  public URI uri() {
    return uri;
  }

  public Payload payload() {
    return payload;
  }

  /** The SOAPAction, or null for none. */
  public String soapAction() {
    return soapAction;
  }

  /** The extra headers, in the order given. */
  public List<Header> headers() {
    return headers;
  }

  /** The call's timeout of progress, or null for the client's. */
  public Duration timeout() {
    return timeout;
  }

  /** The guard the request and its reply pass (such as WS-Security), or null. */
  public MessageGuard guard() {
    return guard;
  }

  /** The WSDL service the call is to, for its span ({@code rpc.service}), or null. */
  public String service() {
    return service;
  }

  /** The WSDL operation the call is, for its span's name ({@code rpc.method}), or null. */
  public String operation() {
    return operation;
  }

  @Override
  public String toString() {
    return "SoapRequest[" + uri + (soapAction == null ? "" : ", " + soapAction) + "]";
  }

  /** Configures a {@link SoapRequest}. */
  public static final class Builder {
    private final URI uri;
    private final Payload payload;
    private final List<Header> headers = new ArrayList<>();
    private String soapAction;
    private Duration timeout;
    private MessageGuard guard;
    private String service;
    private String operation;

    private Builder(URI uri, Payload payload) {
      this.uri = Objects.requireNonNull(uri, "uri");
      this.payload = Objects.requireNonNull(payload, "payload");
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        throw new IllegalArgumentException("expected an http:// or https:// URL, got " + uri);
      }
    }

    /** The SOAPAction (SOAP 1.1's header; SOAP 1.2 sends it in the Content-Type's action). */
    public Builder soapAction(String soapAction) {
      this.soapAction = soapAction;
      return this;
    }

    /**
     * Adds a header line; a name given again adds another line. Headers the client writes
     * itself (Host, Content-Type, Content-Length, Transfer-Encoding, Connection, SOAPAction and
     * the other hop-by-hop ones) are refused.
     *
     * @throws IllegalArgumentException for a reserved name, or a name or value that is not
     *     valid in HTTP (a value may not hold a line break)
     */
    public Builder header(String name, String value) {
      checkName(name);
      checkValue(name, value);
      if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("the client writes " + name + " itself"
            + (name.equalsIgnoreCase("SOAPAction") ? ": use soapAction(...)" : ""));
      }
      headers.add(new Header(name, value));
      return this;
    }

    /** Adds each of {@code headers}' lines. */
    public Builder headers(Map<String, List<String>> headers) {
      headers.forEach((name, values) -> values.forEach(v -> header(name, v)));
      return this;
    }

    /**
     * Sends HTTP Basic credentials ({@code Authorization: Basic}, user and password in UTF-8,
     * RFC 7617). Over plain {@code http} they go in the clear: use {@code https}.
     */
    public Builder basicAuth(String user, String password) {
      if (user.contains(":")) {
        throw new IllegalArgumentException("a Basic user name cannot hold ':'");
      }
      return authorization("Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    /** Sends a bearer token ({@code Authorization: Bearer}, RFC 6750). */
    public Builder bearerToken(String token) {
      if (!TOKEN68.matcher(token).matches()) {
        throw new IllegalArgumentException("a bearer token is token68 characters (RFC 6750)");
      }
      return authorization("Bearer " + token);
    }

    private Builder authorization(String value) {
      headers.removeIf(h -> h.name().equalsIgnoreCase("Authorization"));
      headers.add(new Header("Authorization", value));
      return this;
    }

    /**
     * This call's timeout of progress, in place of the client's: the call fails when its
     * connection moves no byte for this long.
     */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * Passes the request through {@code guard} on its way out (such as WS-Security: signed,
     * encrypted, a UsernameToken added) and the reply on its way in (checked, decrypted): a
     * reply that fails the checks fails the call with the guard's {@code FaultException}. A
     * SOAP fault in reply is handed over unchecked (read it as a report, not as proof).
     */
    public Builder guard(MessageGuard guard) {
      this.guard = guard;
      return this;
    }

    /**
     * Names the call's span after the operation it is: {@code service/operation}, with
     * {@code rpc.service} and {@code rpc.method} (JAX-WS ports name theirs). Either may be null;
     * without an operation the span is named {@code POST}.
     */
    public Builder operation(String service, String operation) {
      this.service = service;
      this.operation = operation;
      return this;
    }

    public SoapRequest build() {
      return new SoapRequest(this);
    }

    private static void checkName(String name) {
      if (name.isEmpty() || !name.chars().allMatch(c -> c > 32 && c < 127
          && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
        throw new IllegalArgumentException("not an HTTP header name: \"" + name + "\"");
      }
    }

    private static void checkValue(String name, String value) {
      if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        throw new IllegalArgumentException("the value of " + name + " holds a line break or NUL");
      }
    }
  }
}
