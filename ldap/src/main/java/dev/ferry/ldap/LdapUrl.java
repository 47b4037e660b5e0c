package dev.ferry.ldap;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * An LDAP URL (RFC 4516): {@code scheme://host:port/dn?attributes?scope?filter?extensions}, as
 * servers send them in referrals and search result references, and as {@link LdapConnection}
 * takes them to connect. The DN, attributes and filter are percent-decoded.
 *
 * <pre>{@code
 * LdapUrl u = LdapUrl.parse("ldaps://ldap.example.com/ou=people,dc=example,dc=com??sub");
 * assert u.port() == 636 && u.scope() == SearchScope.WHOLE_SUBTREE && u.filter() == null;
 * }</pre>
 *
 * @param scheme {@code ldap} or {@code ldaps}
 * @param host the host name or address (an IPv6 address without its brackets); empty if absent
 * @param port the port, or the scheme's default (389 or 636) if absent
 * @param dn the distinguished name, empty if absent
 * @param attributes the attributes to return, empty if absent
 * @param scope the search scope, or null if absent
 * @param filter the RFC 4515 filter string, or null if absent
 */
public record LdapUrl(String scheme, String host, int port, String dn, List<String> attributes,
    SearchScope scope, String filter) {
  /** The default port of {@code ldap://}: {@value}. */
  public static final int LDAP_PORT = 389;
  /** The default port of {@code ldaps://}: {@value}. */
  public static final int LDAPS_PORT = 636;

  public LdapUrl {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(dn, "dn");
    attributes = List.copyOf(attributes);
    if (!scheme.equals("ldap") && !scheme.equals("ldaps")) {
      throw new IllegalArgumentException("not an LDAP scheme: " + scheme);
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }

  /** Returns true for {@code ldaps://}: TLS from the first byte. */
  public boolean isTls() {
    return scheme.equals("ldaps");
  }

  /**
   * Parses an LDAP URL.
   *
   * @throws IllegalArgumentException if {@code url} is not one, or has a critical extension
   *     (RFC 4516 section 2.1: a client must not use a URL whose critical extension it does not
   *     understand, and this class understands none)
   */
  public static LdapUrl parse(String url) {
    int colon = url.indexOf("://");
    if (colon < 0) {
      throw new IllegalArgumentException("not an LDAP URL: " + url);
    }
    String scheme = url.substring(0, colon).toLowerCase(Locale.ROOT);
    String rest = url.substring(colon + 3);
    int slash = rest.indexOf('/');
    String hostPort = slash < 0 ? rest : rest.substring(0, slash);
    String[] parts = slash < 0 ? new String[0] : rest.substring(slash + 1).split("\\?", -1);
    if (parts.length > 5) {
      throw new IllegalArgumentException("too many '?' parts in LDAP URL: " + url);
    }
    checkExtensions(parts.length == 5 ? parts[4] : "", url);
    int defaultPort = scheme.equals("ldaps") ? LDAPS_PORT : LDAP_PORT;
    return new LdapUrl(scheme, host(hostPort), port(hostPort, defaultPort),
        part(parts, 0) == null ? "" : decode(parts[0]), attributes(part(parts, 1)),
        scope(part(parts, 2)), part(parts, 3) == null ? null : decode(parts[3]));
  }

  /** Returns {@code scheme://host:port}, the part that names the server. */
  public String serverPart() {
    String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return scheme + "://" + h + ":" + port;
  }

  private static String part(String[] parts, int index) {
    return index < parts.length && !parts[index].isEmpty() ? parts[index] : null;
  }

  private static String host(String hostPort) {
    if (hostPort.startsWith("[")) {
      int close = hostPort.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("unclosed IPv6 address: " + hostPort);
      }
      return hostPort.substring(1, close);
    }
    int colon = hostPort.lastIndexOf(':');
    return decode(colon < 0 ? hostPort : hostPort.substring(0, colon));
  }

  private static int port(String hostPort, int defaultPort) {
    int from = hostPort.startsWith("[") ? hostPort.indexOf(']') : 0;
    int colon = hostPort.indexOf(':', from);
    if (colon < 0 || colon == hostPort.length() - 1) {
      return defaultPort;
    }
    try {
      return Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad port in " + hostPort, e);
    }
  }

  private static List<String> attributes(String part) {
    return part == null ? List.of() : List.of(decode(part).split(","));
  }

  private static SearchScope scope(String part) {
    if (part == null) {
      return null;
    }
    return switch (part.toLowerCase(Locale.ROOT)) {
      case "base" -> SearchScope.BASE_OBJECT;
      case "one" -> SearchScope.SINGLE_LEVEL;
      case "sub" -> SearchScope.WHOLE_SUBTREE;
      case "subordinates" -> SearchScope.SUBORDINATE_SUBTREE;
      default -> throw new IllegalArgumentException("unknown scope in LDAP URL: " + part);
    };
  }

  private static void checkExtensions(String part, String url) {
    for (String extension : part.split(",")) {
      if (extension.startsWith("!")) {
        throw new IllegalArgumentException("unsupported critical extension in " + url);
      }
    }
  }

  /** Percent-decodes {@code s} as UTF-8 (RFC 3986 section 2.1). */
  private static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      int c = s.codePointAt(i);
      if (c != '%') {
        out.writeBytes(Character.toString(c).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(c) - 1;
        continue;
      }
      if (i + 2 >= s.length()) {
        throw new IllegalArgumentException("truncated percent escape at " + i + " in " + s);
      }
      int hi = Character.digit(s.charAt(i + 1), 16);
      int lo = Character.digit(s.charAt(i + 2), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("bad percent escape at " + i + " in " + s);
      }
      out.write(hi << 4 | lo);
      i += 2;
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
