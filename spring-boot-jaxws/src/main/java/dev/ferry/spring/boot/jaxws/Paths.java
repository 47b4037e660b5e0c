package dev.ferry.spring.boot.jaxws;

/** Checks of path properties, so that a bad value fails binding by its name. */
final class Paths {
  private Paths() {}

  /** A base path: {@code /} or {@code /a/b}, without a trailing slash or wildcards. */
  static String base(String path) {
    String p = endpoint(path);
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }

  /** An endpoint's path: starts with {@code /}, no wildcard, query or fragment. */
  static String endpoint(String path) {
    if (path == null || !path.startsWith("/") || path.contains("*") || path.contains("?")
        || path.contains("#") || path.contains("//") || path.chars().anyMatch(c -> c <= ' ')) {
      throw new IllegalArgumentException("expected a path such as /services (starting with /,"
          + " without *, ?, #, // or spaces), got \"" + path + "\"");
    }
    return path;
  }
}
