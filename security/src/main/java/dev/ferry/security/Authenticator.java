package dev.ferry.security;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Tells who a caller of a server or broker is: by HTTP Basic credentials checked against a
 * {@link PasswordFile}, by the TLS client certificate its listener accepted, or by either.
 * Credentials given and wrong fail, whatever else the caller has; a caller without credentials
 * is identified by its certificate where that is allowed. Where only certificates count, an
 * Authorization header is not looked at (it may be meant for another hop). Thread-safe.
 *
 * <pre>{@code
 * Authenticator auth = Authenticator.basic(PasswordFile.load(Path.of("users.txt")))
 *     .orCertificate();
 * Identity who = auth.authenticate(request.getHeader("Authorization"), peerCertificates);
 * }</pre>
 *
 * <p>Roles (what a servlet's {@code isUserInRole} and JAX-WS's
 * {@code WebServiceContext.isUserInRole} answer) come from a function of the identity, given
 * with {@link #withRoles}: a map, a directory look-up, the certificate's organisation.
 */
public final class Authenticator {
  private final PasswordFile users;
  private final String realm;
  private final boolean certificates;
  private final Function<? super Identity, ? extends Set<String>> roles;

  private Authenticator(PasswordFile users, String realm, boolean certificates,
      Function<? super Identity, ? extends Set<String>> roles) {
    this.users = users;
    this.realm = realm;
    this.certificates = certificates;
    this.roles = roles;
  }

  /** HTTP Basic against {@code users}, in the realm {@code ferry}. */
  public static Authenticator basic(PasswordFile users) {
    return basic(users, "ferry");
  }

  /** HTTP Basic against {@code users}, in {@code realm} (named in the 401 challenge). */
  public static Authenticator basic(PasswordFile users, String realm) {
    if (realm.contains("\"") || realm.contains("\\")) {
      throw new IllegalArgumentException("a realm must not hold quotes or backslashes: " + realm);
    }
    return new Authenticator(Objects.requireNonNull(users), realm, false, null);
  }

  /**
   * The TLS client certificate: its subject is the identity. The listener must ask for
   * certificates ({@link ClientAuth#OPTIONAL} or {@link ClientAuth#REQUIRED}); its trust checks
   * the chain.
   */
  public static Authenticator certificate() {
    return new Authenticator(null, null, true, null);
  }

  /** This authenticator, and the client certificate for callers who send no credentials. */
  public Authenticator orCertificate() {
    return new Authenticator(users, realm, true, roles);
  }

  /**
   * This authenticator, giving each identity it returns the roles {@code roles} names for it
   * (null or empty: none), such as
   * {@code withRoles(who -> Map.of("alice", Set.of("admin")).getOrDefault(who.getName(),
   * Set.of()))}. The function runs once per authentication and must be thread-safe.
   */
  public Authenticator withRoles(Function<? super Identity, ? extends Set<String>> roles) {
    return new Authenticator(users, realm, certificates, Objects.requireNonNull(roles));
  }

  /** Whether client certificates identify callers. */
  public boolean acceptsCertificates() {
    return certificates;
  }

  /**
   * Returns the caller's identity.
   *
   * @param authorization the request's Authorization header, or null
   * @param peer the client certificate chain the TLS listener accepted, or null
   * @throws AuthenticationException if credentials were given and are wrong or malformed, or none
   *     were given and no certificate identifies the caller
   */
  public Identity authenticate(String authorization, X509Certificate[] peer)
      throws AuthenticationException {
    if (users != null && authorization != null && !authorization.isBlank()) {
      return rolesOf(basic(authorization));
    }
    if (certificates && peer != null && peer.length > 0) {
      return rolesOf(Identity.certificate(peer[0]));
    }
    throw new AuthenticationException(users != null && certificates
        ? "no credentials: send HTTP Basic credentials or a client certificate"
        : users != null ? "no credentials: send HTTP Basic credentials"
        : "no client certificate");
  }

  private Identity rolesOf(Identity who) {
    Set<String> given = roles == null ? null : roles.apply(who);
    return given == null || given.isEmpty() ? who : who.withRoles(given);
  }

  /**
   * Whether {@link #authenticate} would answer at once: no password to hash (none given, or one
   * found right lately). A caller on an event loop runs the other cases elsewhere.
   */
  public boolean isQuick(String authorization) {
    if (authorization == null || authorization.isBlank() || users == null) {
      return true;
    }
    Credentials c = decode(authorization);
    try {
      return c == null || users.isRemembered(c.user(), c.password());
    } finally {
      if (c != null) {
        Arrays.fill(c.password(), '\0');
      }
    }
  }

  /** The WWW-Authenticate value of a 401, or null where only certificates are accepted. */
  public String challenge() {
    return users == null ? null : "Basic realm=\"" + realm + "\", charset=\"UTF-8\"";
  }

  private record Credentials(String user, char[] password) {}

  private Identity basic(String authorization) throws AuthenticationException {
    String scheme = authorization.strip().split(" ", 2)[0];
    if (!scheme.equalsIgnoreCase("Basic")) {
      throw new AuthenticationException("the " + scheme + " scheme is not accepted: send HTTP"
          + " Basic credentials");
    }
    Credentials c = decode(authorization);
    if (c == null) {
      throw new AuthenticationException("malformed Basic credentials: expected base64 of"
          + " user:password in UTF-8");
    }
    try {
      if (!users.verify(c.user(), c.password())) {
        throw new AuthenticationException("wrong user or password");
      }
      return Identity.user(c.user());
    } finally {
      Arrays.fill(c.password(), '\0');
    }
  }

  /** Decodes {@code Basic base64(user:password)}; null if it is not that. */
  private static Credentials decode(String authorization) {
    String[] parts = authorization.strip().split(" +", 2);
    if (parts.length != 2 || !parts[0].equalsIgnoreCase("Basic")) {
      return null;
    }
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(parts[1].strip());
    } catch (IllegalArgumentException e) {
      return null;
    }
    CharBuffer text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw));
    } catch (CharacterCodingException e) {
      return null;
    } finally {
      Arrays.fill(raw, (byte) 0);
    }
    int colon = -1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == ':') {
        colon = i;
        break;
      }
    }
    if (colon <= 0) {
      return null;
    }
    char[] all = new char[text.remaining()];
    text.get(all);
    char[] password = Arrays.copyOfRange(all, colon + 1, all.length);
    String user = new String(all, 0, colon);
    Arrays.fill(all, '\0');
    return new Credentials(user, password);
  }
}
