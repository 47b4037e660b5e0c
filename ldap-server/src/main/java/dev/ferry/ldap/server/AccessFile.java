package dev.ferry.ldap.server;

import java.util.Locale;

/**
 * Reads access rules written one grant a line, in words close to slapd's {@code olcAccess}:
 *
 * <pre>
 * # comment
 * to SUBTREE by WHO LEVEL
 *
 * SUBTREE  a DN, or * for the whole directory
 * WHO      anonymous | users | dn=DN | dn.exact=DN | dn.subtree=DN
 * LEVEL    read | write | manage        (anonymous: read only)
 * </pre>
 *
 * <p>Nothing is granted but what a line says: anonymous clients read only where a line lets
 * them. The root DN may do everything whatever the file says.
 */
final class AccessFile {
  private AccessFile() {}

  static AccessRules parse(String text) {
    AccessRules.Builder b = AccessRules.builder().anonymousRead(false);
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        grant(b, line);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("access rules line " + (i + 1) + ": "
            + e.getMessage(), e);
      }
    }
    return b.build();
  }

  private static void grant(AccessRules.Builder b, String line) {
    if (!line.regionMatches(true, 0, "to ", 0, 3)) {
      throw new IllegalArgumentException("'" + line + "' (expected: to SUBTREE by WHO LEVEL)");
    }
    int by = line.toLowerCase(Locale.ROOT).lastIndexOf(" by ");
    if (by < 0) {
      throw new IllegalArgumentException("no 'by' (expected: to SUBTREE by WHO LEVEL)");
    }
    String subtree = line.substring(3, by).strip();
    subtree = subtree.equals("*") ? "" : subtree;
    String rest = line.substring(by + 4).strip();
    int space = rest.lastIndexOf(' ');
    if (space < 0) {
      throw new IllegalArgumentException("'" + rest + "' (expected: WHO LEVEL)");
    }
    String who = rest.substring(0, space).strip();
    AccessRules.Level level = level(rest.substring(space + 1));
    String lower = who.toLowerCase(Locale.ROOT);
    if (lower.equals("anonymous")) {
      if (level != AccessRules.Level.READ) {
        throw new IllegalArgumentException("anonymous clients may only read, not " + level
            .name().toLowerCase(Locale.ROOT));
      }
      b.allowAnonymous(subtree);
    } else if (lower.equals("users")) {
      b.allowBoundUsers(subtree, level);
    } else if (lower.startsWith("dn.subtree=")) {
      b.allowSubtree(who.substring(11), subtree, level);
    } else if (lower.startsWith("dn.exact=")) {
      b.allow(who.substring(9), subtree, level);
    } else if (lower.startsWith("dn=")) {
      b.allow(who.substring(3), subtree, level);
    } else {
      throw new IllegalArgumentException("who '" + who + "' (expected: anonymous, users,"
          + " dn=DN, dn.exact=DN or dn.subtree=DN)");
    }
  }

  private static AccessRules.Level level(String word) {
    return switch (word.toLowerCase(Locale.ROOT)) {
      case "read" -> AccessRules.Level.READ;
      case "write" -> AccessRules.Level.WRITE;
      case "manage" -> AccessRules.Level.MANAGE;
      default -> throw new IllegalArgumentException("level '" + word
          + "' (expected: read, write or manage)");
    };
  }
}
