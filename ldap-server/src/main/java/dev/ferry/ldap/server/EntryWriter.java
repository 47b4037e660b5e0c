package dev.ferry.ldap.server;

import java.io.IOException;

/**
 * Writes SearchResultEntry messages from stored entries. Returning every user attribute is one
 * copy of the stored operation element behind a message header; any other selection splices
 * the chosen attribute elements (or, for typesOnly, their descriptions) under new headers.
 */
final class EntryWriter {
  /** {@code hasSubordinates: TRUE} and {@code FALSE}, encoded: computed per search, not kept. */
  private static final byte[] HAS_SUBORDINATES_TRUE = attribute("hasSubordinates", "TRUE");
  private static final byte[] HAS_SUBORDINATES_FALSE = attribute("hasSubordinates", "FALSE");
  private static final byte[] HAS_SUBORDINATES_TYPE = attribute("hasSubordinates", "");

  private EntryWriter() {}

  private static byte[] attribute(String description, String value) {
    int descElem = 2 + description.length();
    int set = value.isEmpty() ? 0 : 2 + value.length(); // "" for typesOnly: no value
    int content = descElem + 2 + set;
    byte[] a = new byte[2 + content];
    int p = BerHeaders.put(a, 0, 0x30, content);
    p = BerHeaders.put(a, p, 0x04, description.length());
    p = ascii(description, a, p);
    p = BerHeaders.put(a, p, 0x31, set);
    if (!value.isEmpty()) {
      p = BerHeaders.put(a, p, 0x04, value.length());
      ascii(value, a, p);
    }
    return a;
  }

  private static int ascii(String s, byte[] a, int p) {
    for (int i = 0; i < s.length(); i++) {
      a[p++] = (byte) s.charAt(i);
    }
    return p;
  }

  /**
   * Writes the entry as message {@code id}.
   *
   * @param hasChildren whether the entry has subordinates, for {@code hasSubordinates}
   * @param secrets whether the client may see the entry's passwords
   */
  static void write(Outbound out, int id, StoredEntry e, Selection selection, boolean typesOnly,
      boolean hasChildren, boolean secrets) throws IOException {
    if (!typesOnly && selection.isAllUserAttributes()
        && (!secrets || e.publicCount == e.userCount)) {
      out.header(0x30, 2 + Outbound.integerOctets(id) + e.userEnd);
      out.messageId(id);
      e.writeTo(out, 0, e.userEnd);
      return;
    }
    byte[] hasSubs = !selection.hasSubordinates ? null : typesOnly ? HAS_SUBORDINATES_TYPE
        : hasChildren ? HAS_SUBORDINATES_TRUE : HAS_SUBORDINATES_FALSE;
    long list = hasSubs == null ? 0 : hasSubs.length;
    for (int i = 0; i < e.attributeCount(); i++) {
      StoredAttribute a = selection.selects(e, i, secrets);
      if (a != null) {
        list += typesOnly ? BerHeaders.element(a.descEnd - a.descStart + 2L) : a.end - a.start;
      }
    }
    long op = (e.dnEnd - e.dnStart) + BerHeaders.element(list);
    out.header(0x30, 2 + Outbound.integerOctets(id) + BerHeaders.element(op));
    out.messageId(id);
    out.header(StoredEntry.SEARCH_RESULT_ENTRY, op);
    e.writeTo(out, e.dnStart, e.dnEnd - e.dnStart);
    out.header(0x30, list);
    for (int i = 0; i < e.attributeCount(); i++) {
      StoredAttribute a = selection.selects(e, i, secrets);
      if (a == null) {
        continue;
      }
      if (typesOnly) {
        out.header(0x30, a.descEnd - a.descStart + 2L);
        e.writeTo(out, a.descStart, a.descEnd - a.descStart);
        out.put((byte) 0x31);
        out.put((byte) 0);
      } else {
        e.writeTo(out, a.start, a.end - a.start);
      }
    }
    if (hasSubs != null) {
      out.put(hasSubs, 0, hasSubs.length);
    }
  }
}
