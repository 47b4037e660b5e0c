package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.bytes.internal.BytesAccess;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An entry as the directory keeps it: encoded once, when it is added or changed, as the
 * SearchResultEntry operation that returns it whole, with its secret attributes (passwords)
 * and operational attributes encoded after that element. A search that returns every user
 * attribute writes {@code pdu[0, userEnd)} behind a message header: the stored values are
 * copied once, into the connection's buffer, and nothing is encoded again. Other selections
 * splice attribute elements under new headers.
 *
 * <pre>
 * 0          dnStart  dnEnd      attrsStart               userEnd
 * | 64 len   | 04 dn  | 30 len   | public user attributes  | secret ones | operational ones |
 * </pre>
 *
 * <p>{@link #attributes} holds them in that order: the first {@link #publicCount} are public,
 * the first {@link #userCount} are the user attributes, secret ones included.
 *
 * <p>Immutable: a change makes a new entry. Values are slices of {@link #pdu}.
 */
final class StoredEntry {
  private static final BytesAccess BYTES = BytesAccess.get();
  static final int SEARCH_RESULT_ENTRY = 0x64;

  final Dn dn;
  final String dnText;
  final String key;
  final byte[] pdu;
  final int dnStart;
  final int dnEnd;
  final int attrsStart;
  final int userEnd;
  final StoredAttribute[] attributes;
  final int publicCount;
  final int userCount;

  private StoredEntry(Dn dn, String dnText, String key, byte[] pdu, int dnStart, int dnEnd,
      int attrsStart, int userEnd, StoredAttribute[] attributes, int publicCount,
      int userCount) {
    this.dn = dn;
    this.dnText = dnText;
    this.key = key;
    this.pdu = pdu;
    this.dnStart = dnStart;
    this.dnEnd = dnEnd;
    this.attrsStart = attrsStart;
    this.userEnd = userEnd;
    this.attributes = attributes;
    this.publicCount = publicCount;
    this.userCount = userCount;
  }

  /** An attribute to store: its type, its description as written, and its values. */
  record Spec(AttributeType type, String description, List<ByteString> values) {}

  /** Encodes an entry; {@code user} and {@code operational} are already checked and merged. */
  static StoredEntry encode(Dn dn, List<Spec> user, List<Spec> operational, Schema schema) {
    List<Spec> secret = new ArrayList<>();
    List<Spec> open = new ArrayList<>(user.size());
    for (Spec s : user) {
      (s.type.secret ? secret : open).add(s);
    }
    secret.addAll(operational);
    return encode(dn, open, secret, user.size(), schema);
  }

  /** Encodes {@code user} in the SearchResultEntry element and {@code after} behind it. */
  private static StoredEntry encode(Dn dn, List<Spec> user, List<Spec> after, int userCount,
      Schema schema) {
    String dnText = dn.toString();
    byte[] dnBytes = dnText.getBytes(StandardCharsets.UTF_8);
    long userList = 0;
    for (Spec s : user) {
      userList += BerHeaders.element(attributeContent(s));
    }
    long op = BerHeaders.element(dnBytes.length) + BerHeaders.element(userList);
    long total = BerHeaders.element(op);
    for (Spec s : after) {
      total += BerHeaders.element(attributeContent(s));
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("entry of " + total + " bytes is too large");
    }
    ByteStringBuilder b = new ByteStringBuilder((int) total);
    byte[] a = BYTES.reserve(b, (int) total);
    int p = BerHeaders.put(a, 0, SEARCH_RESULT_ENTRY, (int) op);
    int dnStart = p;
    p = BerHeaders.put(a, p, 0x04, dnBytes.length);
    System.arraycopy(dnBytes, 0, a, p, dnBytes.length);
    p += dnBytes.length;
    int dnEnd = p;
    p = BerHeaders.put(a, p, 0x30, (int) userList);
    int attrsStart = p;
    BYTES.commit(b, (int) total);
    ByteString whole = b.toByteString();
    StoredAttribute[] attrs = new StoredAttribute[user.size() + after.size()];
    int i = 0;
    for (Spec s : user) {
      attrs[i] = attribute(a, p, s, whole, schema);
      p = attrs[i++].end;
    }
    int userEnd = p;
    for (Spec s : after) {
      attrs[i] = attribute(a, p, s, whole, schema);
      p = attrs[i++].end;
    }
    if (p != total) {
      throw new IllegalStateException("entry encoded to " + p + " of " + total + " bytes");
    }
    return new StoredEntry(dn, dnText, schema.normalize(dn), a, dnStart, dnEnd, attrsStart,
        userEnd, attrs, user.size(), userCount);
  }

  private static long attributeContent(Spec s) {
    return BerHeaders.element(utf8Length(s.description)) + BerHeaders.element(setLength(s));
  }

  /** The content length of the SET OF the attribute's values. */
  private static long setLength(Spec s) {
    long set = 0;
    for (ByteString v : s.values) {
      set += BerHeaders.element(v.size());
    }
    return set;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static StoredAttribute attribute(byte[] a, int p, Spec s, ByteString whole,
      Schema schema) {
    byte[] desc = s.description.getBytes(StandardCharsets.UTF_8);
    long set = setLength(s);
    int start = p;
    p = BerHeaders.put(a, p, 0x30, (int) (BerHeaders.element(desc.length)
        + BerHeaders.element(set)));
    int descStart = p;
    p = BerHeaders.put(a, p, 0x04, desc.length);
    System.arraycopy(desc, 0, a, p, desc.length);
    p += desc.length;
    int descEnd = p;
    p = BerHeaders.put(a, p, 0x31, (int) set);
    ByteString[] values = new ByteString[s.values.size()];
    Object[] keys = new Object[values.length];
    MatchingRule eq = s.type.equality;
    for (int i = 0; i < values.length; i++) {
      ByteString v = s.values.get(i);
      p = BerHeaders.put(a, p, 0x04, v.size());
      v.copyTo(0, a, p, v.size());
      values[i] = whole.subSequence(p, v.size());
      keys[i] = eq == null ? null : eq.key(values[i], schema);
      p += v.size();
    }
    return new StoredAttribute(s.type, s.description, start, descStart, descEnd, p, values,
        keys);
  }

  /** Returns the number of bytes the entry's encoding takes. */
  int encodedSize() {
    return pdu.length;
  }

  /** Returns the attributes as specs, user ones then operational, to build a changed entry. */
  List<Spec> specs(boolean operational) {
    List<Spec> out = new ArrayList<>();
    int from = operational ? userCount : 0;
    int to = operational ? attributes.length : userCount;
    for (int i = from; i < to; i++) {
      StoredAttribute s = attributes[i];
      out.add(new Spec(s.type, s.description, s.valueList()));
    }
    return out;
  }

  /** Returns the user attributes as the client model has them. */
  List<Attribute> userAttributes() {
    List<Attribute> out = new ArrayList<>(userCount);
    for (int i = 0; i < userCount; i++) {
      out.add(new Attribute(attributes[i].description, attributes[i].valueList()));
    }
    return out;
  }

  /** Returns the first attribute of exactly this type (any options), or null. */
  StoredAttribute attribute(AttributeType type) {
    for (StoredAttribute a : attributes) {
      if (a.type == type) {
        return a;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "StoredEntry[" + dnText + "]";
  }
}
