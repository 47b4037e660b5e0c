package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.util.List;
import java.util.Locale;

/**
 * One attribute of a {@link StoredEntry}: where its element lies in the entry's encoded bytes,
 * its values as slices of those bytes, and their equality keys, computed once when the entry is
 * stored so that filters compare keys instead of preparing values on every search.
 *
 * <pre>
 * start                   descEnd      setStart                                   end
 * | 30 len | 04 len desc  | 31 len     | 04 len value | 04 len value | ...        |
 * </pre>
 */
final class StoredAttribute {
  final AttributeType type;
  final String description;
  /** The description's options, lower-cased and sorted, each with its ';'; "" for none. */
  final String options;
  final int start;
  final int descStart;
  final int descEnd;
  final int end;
  final ByteString[] values;
  final Object[] keys;

  StoredAttribute(AttributeType type, String description, int start, int descStart,
      int descEnd, int end, ByteString[] values, Object[] keys) {
    this.type = type;
    this.description = description;
    this.options = options(description);
    this.start = start;
    this.descStart = descStart;
    this.descEnd = descEnd;
    this.end = end;
    this.values = values;
    this.keys = keys;
  }

  /** Returns the type part of a description: {@code cn} of {@code cn;lang-en}. */
  static String typeName(String description) {
    int semi = description.indexOf(';');
    return semi < 0 ? description : description.substring(0, semi);
  }

  /** Returns a description's options as {@link #options} holds them. */
  static String options(String description) {
    int semi = description.indexOf(';');
    if (semi < 0) {
      return "";
    }
    String[] parts = description.substring(semi + 1).toLowerCase(Locale.ROOT).split(";");
    java.util.Arrays.sort(parts);
    StringBuilder s = new StringBuilder();
    for (String p : parts) {
      if (!p.isEmpty()) {
        s.append(';').append(p);
      }
    }
    return s.toString();
  }

  /** True if this attribute carries every option of {@code wanted} (RFC 4512 section 2.5.2). */
  boolean hasOptions(String wanted) {
    if (wanted.isEmpty()) {
      return true;
    }
    for (String o : wanted.substring(1).split(";")) {
      if (!(options + ";").contains(";" + o + ";")) {
        return false;
      }
    }
    return true;
  }

  List<ByteString> valueList() {
    return List.of(values);
  }

  @Override
  public String toString() {
    return description + "=" + List.of(values);
  }
}
