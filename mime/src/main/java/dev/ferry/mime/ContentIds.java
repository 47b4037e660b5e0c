package dev.ferry.mime;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Content-ID values and {@code cid:} URLs (RFC 2392).
 *
 * <p>Real stacks disagree on angle brackets and on percent-encoding, so Ferry compares the
 * bare forms: {@link #strip} removes brackets from a header value; {@link #fromCidUrl} removes the
 * scheme and percent-decodes a URL (RFC 2392 with erratum 454: the header is not encoded, the
 * URL is); {@link #toCidUrl} encodes only what a URL must, so that every peer matches it.
 *
 * <pre>{@code
 * assert ContentIds.strip("<1.x@ferry.dev>").equals("1.x@ferry.dev");
 * assert ContentIds.fromCidUrl("cid:1.x%40ferry.dev").equals("1.x@ferry.dev");
 * assert ContentIds.toCidUrl("a b@c").equals("cid:a%20b@c");
 * }</pre>
 */
public final class ContentIds {
  private static final String URL_SAFE =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/";

  private ContentIds() {}

  /** Returns the value without surrounding white space and angle brackets. */
  public static String strip(String contentId) {
    String s = contentId.strip();
    if (s.length() >= 2 && s.charAt(0) == '<' && s.charAt(s.length() - 1) == '>') {
      s = s.substring(1, s.length() - 1).strip();
    }
    return s;
  }

  /**
   * Returns true if {@code url} starts with the scheme {@code cid:} (any case).
   */
  public static boolean isCidUrl(String url) {
    return url.regionMatches(true, 0, "cid:", 0, 4);
  }

  /**
   * Returns the Content-ID a {@code cid:} URL names: scheme removed, percent-decoded (as UTF-8),
   * angle brackets removed if a stack put them in.
   *
   * @throws IllegalArgumentException if the URL is not a {@code cid:} URL or has a bad escape
   */
  public static String fromCidUrl(String url) {
    if (!isCidUrl(url)) {
      throw new IllegalArgumentException("not a cid: URL: \"" + url + "\"");
    }
    return strip(percentDecode(url.substring(4)));
  }

  /** Returns the {@code cid:} URL for a bare Content-ID, percent-encoding unsafe characters. */
  public static String toCidUrl(String contentId) {
    byte[] bytes = strip(contentId).getBytes(StandardCharsets.UTF_8);
    StringBuilder s = new StringBuilder(bytes.length + 4).append("cid:");
    for (byte b : bytes) {
      char c = (char) (b & 0xff);
      if (c < 128 && URL_SAFE.indexOf(c) >= 0) {
        s.append(c);
      } else {
        s.append('%').append(Character.toUpperCase(Character.forDigit((c >> 4) & 0xf, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return s.toString();
  }

  private static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '%') {
        out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        continue;
      }
      int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
      int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
      if (lo < 0) {
        throw new IllegalArgumentException("bad percent escape at index " + i + " of \"" + s
            + "\"");
      }
      out.write(hi << 4 | lo);
      i += 2;
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
