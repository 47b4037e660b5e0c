package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An entry as the directory keeps it: encoded once, when it is added or changed, as the
 * SearchResultEntry operation that returns it whole, with its secret attributes (passwords)
 * and operational attributes encoded after that element. A search that returns every user
 * attribute writes {@code bytes[0, userEnd)} behind a message header: the stored values are
 * copied once, into the connection's buffer, and nothing is encoded again. Other selections
 * splice attribute elements under new headers.
 *
 * <pre>
 * 0          dnStart  dnEnd      attrsStart               userEnd                         size
 * | 64 len   | 04 dn  | 30 len   | public user attributes  | secret ones | operational ones |
 * </pre>
 *
 * <p>The attributes are in that order: the first {@link #publicCount} are public, the first
 * {@link #userCount} are the user attributes, secret ones included.
 *
 * <p>Two kinds, one shape. An entry the directory holds in memory wraps its own array and
 * has its attributes, their values (slices of the array) and their equality keys made when
 * it is encoded; it is immutable and shared by every reader. An entry read from a durable
 * store ({@link #view}) lies in the store's mapped memory and is read there: only the
 * attributes a filter or a selection asks for are read, when asked, and it is valid only
 * until the read that found it ends.
 */
final class StoredEntry {
  static final int SEARCH_RESULT_ENTRY = 0x64;

  final String key;
  private final ByteBuffer bytes; // absolute reads only: never moved, shared by readers
  private final byte[] array; // the heap array of an entry held in memory; null in a view
  private final ByteString whole; // the array as a ByteString, values are slices of it
  final int dnStart;
  final int dnEnd;
  final int attrsStart;
  final int userEnd;
  final int size;
  final int publicCount;
  final int userCount;
  private final AttributeType[] types;
  private final StoredAttribute[] attributes; // made lazily in a view
  private final Schema schema;
  private int[] starts; // a view's attribute offsets, read when first needed
  private Dn dn;
  private String dnText;

  private StoredEntry(String key, ByteBuffer bytes, byte[] array, AttributeType[] types,
      int publicCount, int userCount, Schema schema, String dnText, Dn dn) {
    this.key = key;
    this.bytes = bytes;
    this.array = array;
    this.whole = array == null ? null : ByteString.takeOwnership(array);
    this.size = bytes.limit();
    this.dnStart = BerHeaders.headerSize(bytes, 0);
    this.dnEnd = BerHeaders.end(bytes, dnStart);
    this.attrsStart = dnEnd + BerHeaders.headerSize(bytes, dnEnd);
    this.userEnd = BerHeaders.end(bytes, 0);
    this.types = types;
    this.publicCount = publicCount;
    this.userCount = userCount;
    this.schema = schema;
    this.dnText = dnText;
    this.dn = dn;
    this.attributes = new StoredAttribute[types.length];
    if (array != null) {
      int p = attrsStart;
      for (int i = 0; i < types.length; i++) {
        attributes[i] = new StoredAttribute(this, types[i], p, true);
        p = attributes[i].end;
      }
    }
  }

  /**
   * An entry read in place from a store: {@code bytes} (position 0, limit at the entry's end)
   * must stay readable and unchanged while the entry is used.
   */
  static StoredEntry view(String key, ByteBuffer bytes, AttributeType[] types, int publicCount,
      int userCount, Schema schema) {
    return new StoredEntry(key, bytes, null, types, publicCount, userCount, schema, null,
        null);
  }

  /** The same entry held in memory of its own, to keep beyond the read that found it. */
  StoredEntry detached() {
    if (array != null) {
      return this;
    }
    byte[] a = new byte[size];
    bytes.get(0, a);
    return new StoredEntry(key, ByteBuffer.wrap(a), a, types, publicCount, userCount, schema,
        dnText, dn);
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
    byte[] a = new byte[(int) total];
    int p = BerHeaders.put(a, 0, SEARCH_RESULT_ENTRY, (int) op);
    p = BerHeaders.put(a, p, 0x04, dnBytes.length);
    System.arraycopy(dnBytes, 0, a, p, dnBytes.length);
    p += dnBytes.length;
    p = BerHeaders.put(a, p, 0x30, (int) userList);
    AttributeType[] types = new AttributeType[user.size() + after.size()];
    int i = 0;
    for (Spec s : user) {
      p = writeAttribute(a, p, s);
      types[i++] = s.type;
    }
    for (Spec s : after) {
      p = writeAttribute(a, p, s);
      types[i++] = s.type;
    }
    if (p != total) {
      throw new IllegalStateException("entry encoded to " + p + " of " + total + " bytes");
    }
    return new StoredEntry(schema.normalize(dn), ByteBuffer.wrap(a), a, types, user.size(),
        userCount, schema, dnText, dn);
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

  private static int writeAttribute(byte[] a, int p, Spec s) {
    byte[] desc = s.description.getBytes(StandardCharsets.UTF_8);
    long set = setLength(s);
    p = BerHeaders.put(a, p, 0x30, (int) (BerHeaders.element(desc.length)
        + BerHeaders.element(set)));
    p = BerHeaders.put(a, p, 0x04, desc.length);
    System.arraycopy(desc, 0, a, p, desc.length);
    p += desc.length;
    p = BerHeaders.put(a, p, 0x31, (int) set);
    for (ByteString v : s.values) {
      p = BerHeaders.put(a, p, 0x04, v.size());
      v.copyTo(0, a, p, v.size());
      p += v.size();
    }
    return p;
  }

  /** Returns the number of bytes the entry's encoding takes. */
  int encodedSize() {
    return size;
  }

  /** The entry's DN as stored. */
  String dnText() {
    if (dnText == null) {
      int at = dnStart + BerHeaders.headerSize(bytes, dnStart);
      byte[] b = new byte[dnEnd - at];
      bytes.get(at, b);
      dnText = new String(b, StandardCharsets.UTF_8);
    }
    return dnText;
  }

  Dn dn() {
    if (dn == null) {
      dn = Dn.parse(dnText());
    }
    return dn;
  }

  /** True for the root DSE. */
  boolean isRoot() {
    return key.isEmpty();
  }

  int attributeCount() {
    return types.length;
  }

  /** The type of attribute {@code i}: known without reading the attribute. */
  AttributeType type(int i) {
    return types[i];
  }

  /** Attribute {@code i}; in a view, read from the store when first asked for. */
  StoredAttribute attribute(int i) {
    StoredAttribute a = attributes[i];
    if (a == null) {
      if (starts == null) {
        starts = new int[types.length];
        for (int j = 0, p = attrsStart; j < types.length; j++) {
          starts[j] = p;
          p = BerHeaders.end(bytes, p);
        }
      }
      a = attributes[i] = new StoredAttribute(this, types[i], starts[i], false);
    }
    return a;
  }

  /** The bytes of the entry, for absolute reads only. */
  ByteBuffer bytes() {
    return bytes;
  }

  /**
   * Returns {@code bytes[offset, offset + byteCount)}: a slice of an entry held in memory, a
   * copy of a view's bytes (a view's memory is the store's, and outlives no read).
   */
  ByteString slice(int offset, int byteCount) {
    if (whole != null) {
      return whole.subSequence(offset, byteCount);
    }
    byte[] b = new byte[byteCount];
    bytes.get(offset, b);
    return ByteString.takeOwnership(b);
  }

  /** True if the entry is held in memory (not a view into a store). */
  boolean isHeld() {
    return array != null;
  }

  Schema schema() {
    return schema;
  }

  /** Writes {@code bytes[offset, offset + byteCount)} to {@code out}. */
  void writeTo(Outbound out, int offset, int byteCount) throws IOException {
    if (array != null) {
      out.put(array, offset, byteCount);
    } else {
      out.put(bytes, offset, byteCount);
    }
  }

  /** Returns the attributes as specs, user ones then operational, to build a changed entry. */
  List<Spec> specs(boolean operational) {
    List<Spec> out = new ArrayList<>();
    int from = operational ? userCount : 0;
    int to = operational ? types.length : userCount;
    for (int i = from; i < to; i++) {
      StoredAttribute s = attribute(i);
      out.add(new Spec(s.type, s.description(), s.valueList()));
    }
    return out;
  }

  /** Returns the user attributes as the client model has them. */
  List<Attribute> userAttributes() {
    return attributes(0, userCount);
  }

  /** Returns every attribute, operational ones too, as the client model has them. */
  List<Attribute> allAttributes() {
    return attributes(0, types.length);
  }

  private List<Attribute> attributes(int from, int to) {
    List<Attribute> out = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      StoredAttribute a = attribute(i);
      out.add(new Attribute(a.description(), a.valueList()));
    }
    return out;
  }

  /** Returns the first attribute of exactly this type (any options), or null. */
  StoredAttribute attribute(AttributeType type) {
    for (int i = 0; i < types.length; i++) {
      if (types[i] == type) {
        return attribute(i);
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "StoredEntry[" + dnText() + "]";
  }
}
