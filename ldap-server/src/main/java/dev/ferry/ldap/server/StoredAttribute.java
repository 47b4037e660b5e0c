package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/**
 * One attribute of a {@link StoredEntry}: where its element lies in the entry's encoded bytes,
 * its description, its values and their equality keys. Of an entry held in memory, the values
 * are slices of its bytes and the keys are computed once, when it is stored, so that filters
 * compare keys instead of preparing values on every search; of a view, they are read and
 * computed when first asked for.
 *
 * <pre>
 * start                   descEnd      setStart                                   end
 * | 30 len | 04 len desc  | 31 len     | 04 len value | 04 len value | ...        |
 * </pre>
 */
final class StoredAttribute {
  private static final Object UNKNOWN = new Object();

  final AttributeType type;
  final int start;
  final int descStart;
  final int descEnd;
  final int end;
  private final StoredEntry entry;
  private String description;
  private String options;
  private ByteString[] values;
  private Object[] keys;

  /**
   * @param eager read the description and values and compute the keys now (an entry held in
   *     memory, shared by readers once made), or when asked (a view, read by one reader)
   */
  StoredAttribute(StoredEntry entry, AttributeType type, int start, boolean eager) {
    this.entry = entry;
    this.type = type;
    this.start = start;
    ByteBuffer b = entry.bytes();
    this.descStart = start + BerHeaders.headerSize(b, start);
    this.descEnd = BerHeaders.end(b, descStart);
    this.end = BerHeaders.end(b, start);
    if (eager) {
      description();
      options();
      values();
      for (int i = 0; i < values.length; i++) {
        key(i);
      }
    }
  }

  /** The description as stored: {@code cn;lang-en}. */
  String description() {
    if (description == null) {
      ByteBuffer b = entry.bytes();
      int at = descStart + BerHeaders.headerSize(b, descStart);
      description = entry.slice(at, descEnd - at).utf8();
    }
    return description;
  }

  /** The description's options, lower-cased and sorted, each with its ';'; "" for none. */
  String options() {
    if (options == null) {
      options = options(description());
    }
    return options;
  }

  ByteString[] values() {
    if (values == null) {
      ByteBuffer b = entry.bytes();
      int count = 0;
      int setStart = descEnd + BerHeaders.headerSize(b, descEnd);
      for (int p = setStart; p < end; p = BerHeaders.end(b, p)) {
        count++;
      }
      ByteString[] v = new ByteString[count];
      for (int i = 0, p = setStart; i < count; i++, p = BerHeaders.end(b, p)) {
        int at = p + BerHeaders.headerSize(b, p);
        v[i] = entry.slice(at, BerHeaders.length(b, p));
      }
      values = v;
    }
    return values;
  }

  /** The equality key of value {@code i} (null when there is no rule or it cannot be read). */
  Object key(int i) {
    if (keys == null) {
      keys = new Object[values().length];
      java.util.Arrays.fill(keys, UNKNOWN);
    }
    Object k = keys[i];
    if (k == UNKNOWN) {
      MatchingRule eq = type.equality;
      k = keys[i] = eq == null ? null : eq.key(values()[i], entry.schema());
    }
    return k;
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
    String options = options();
    for (String o : wanted.substring(1).split(";")) {
      if (!(options + ";").contains(";" + o + ";")) {
        return false;
      }
    }
    return true;
  }

  List<ByteString> valueList() {
    return List.of(values());
  }

  @Override
  public String toString() {
    return description() + "=" + valueList();
  }
}
