package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An attribute description and its values (RFC 4511 PartialAttribute). Decoded values are slices
 * of the received PDU; call {@link ByteString#toByteArray()} to own a copy.
 *
 * <p>Most attributes hold one value, so that value is kept without a list around it: decoding an
 * entry allocates one object per attribute and one per value. {@link #size()} and
 * {@link #value(int)} read values without allocating; {@link #values()} wraps a single value in
 * a new immutable list on each call.
 *
 * <pre>{@code
 * Attribute a = Attribute.of("cn", "Babs Jensen");
 * assert a.size() == 1 && a.value(0).utf8().equals("Babs Jensen");
 * assert a.equals(new Attribute("cn", List.of(ByteString.encodeUtf8("Babs Jensen"))));
 * }</pre>
 */
public final class Attribute {
  private final String description;
  private final Object values; // a ByteString when there is exactly one value, else a List
  // Whether the description is ASCII, found out when first encoded: 0 not yet, 1 yes, 2 no. A
  // racy write of a byte that every thread computes alike; it fits in the object's padding.
  private byte descriptionAscii;

  /** Creates an attribute; {@code values} is copied unless it is already immutable and ours. */
  public Attribute(String description, List<ByteString> values) {
    this.description = Objects.requireNonNull(description, "description");
    List<ByteString> list = FrozenList.trusted(values);
    this.values = list.size() == 1 ? list.get(0) : list;
  }

  private Attribute(String description, ByteString single) {
    this.description = description;
    this.values = single;
  }

  /** Returns a single-valued attribute (the decoder's fast path). */
  static Attribute single(String description, ByteString value) {
    return new Attribute(Objects.requireNonNull(description, "description"),
        Objects.requireNonNull(value, "value"));
  }

  /** Returns an attribute with UTF-8 string values. */
  public static Attribute of(String description, String... values) {
    List<ByteString> v = new ArrayList<>(values.length);
    for (String s : values) {
      v.add(ByteString.encodeUtf8(s));
    }
    return new Attribute(description, v);
  }

  /** Returns the attribute description, such as {@code cn} or {@code userCertificate;binary}. */
  public String description() {
    return description;
  }

  /** Returns true if the description is ASCII (every valid description is), cached. */
  boolean descriptionIsAscii() {
    byte known = descriptionAscii;
    if (known == 0) {
      known = EntryCodec.isAscii(description) ? (byte) 1 : (byte) 2;
      descriptionAscii = known;
    }
    return known == 1;
  }

  /** Returns the value if there is exactly one, else null; for the encoder's fast path. */
  ByteString onlyValue() {
    return values instanceof ByteString v ? v : null;
  }

  /** Returns the number of values. */
  public int size() {
    return values instanceof ByteString ? 1 : list().size();
  }

  /** Returns value {@code index}, without allocating. */
  public ByteString value(int index) {
    if (values instanceof ByteString v) {
      Objects.checkIndex(index, 1);
      return v;
    }
    return list().get(index);
  }

  /** Returns the values as an immutable list. */
  public List<ByteString> values() {
    return values instanceof ByteString v ? List.of(v) : list();
  }

  /** Returns the first value as UTF-8 text, or null if there is none. */
  public String firstValueAsString() {
    return size() == 0 ? null : value(0).utf8();
  }

  @SuppressWarnings("unchecked")
  private List<ByteString> list() {
    return (List<ByteString>) values;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Attribute that) || !description.equals(that.description)
        || size() != that.size()) {
      return false;
    }
    for (int i = 0, n = size(); i < n; i++) {
      if (!value(i).equals(that.value(i))) {
        return false;
      }
    }
    return true;
  }

  /** Same as {@code Objects.hash(description(), values())}, without allocating. */
  @Override
  public int hashCode() {
    int h = 1;
    for (int i = 0, n = size(); i < n; i++) {
      h = 31 * h + value(i).hashCode();
    }
    return 31 * (31 + description.hashCode()) + h;
  }

  @Override
  public String toString() {
    return "Attribute[description=" + description + ", values=" + values() + "]";
  }
}
