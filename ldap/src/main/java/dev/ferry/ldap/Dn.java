package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A distinguished name in the string form of RFC 4514: RDNs from the entry up to the root, each a
 * set of attribute type and value pairs.
 *
 * <p>{@link #parse} accepts the RFC 4514 grammar, plus spaces around {@code , + =} as most
 * servers do; {@link #toString()} writes the RFC 4514 form, escaping {@code " + , ; < > \}, a
 * leading space or {@code #}, a trailing space and NUL. Equality is exact (types and values as
 * written), not schema-aware matching.
 *
 * <pre>{@code
 * Dn dn = Dn.parse("cn=Smith\\, John+uid=js,dc=example,dc=com");
 * assert dn.rdns().size() == 3;
 * assert dn.rdns().get(0).avas().get(1).valueAsString().equals("js");
 * assert dn.parent().toString().equals("dc=example,dc=com");
 * assert dn.toString().equals("cn=Smith\\, John+uid=js,dc=example,dc=com");
 * }</pre>
 */
public record Dn(List<Rdn> rdns) {
  /** The empty DN, the root DSE's name. */
  public static final Dn ROOT = new Dn(List.of());

  public Dn {
    rdns = List.copyOf(rdns);
  }

  /** One relative distinguished name: at least one pair. */
  public record Rdn(List<Ava> avas) {
    public Rdn {
      avas = List.copyOf(avas);
      if (avas.isEmpty()) {
        throw new IllegalArgumentException("an RDN needs at least one attribute value");
      }
    }

    /** Returns the single-valued RDN {@code type=value}. */
    public static Rdn of(String type, String value) {
      return new Rdn(List.of(Ava.of(type, value)));
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < avas.size(); i++) {
        s.append(i == 0 ? "" : "+").append(avas.get(i));
      }
      return s.toString();
    }
  }

  /**
   * An attribute type and value. A value written as {@code #hex} (RFC 4514 section 2.4) keeps its
   * BER encoding as the bytes and {@code berEncoded} set.
   */
  public record Ava(String type, ByteString value, boolean berEncoded) {
    public Ava {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(value, "value");
    }

    /** Returns a pair with a UTF-8 string value. */
    public static Ava of(String type, String value) {
      return new Ava(type, ByteString.encodeUtf8(value), false);
    }

    /** Returns the value as UTF-8 text. */
    public String valueAsString() {
      return value.utf8();
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder(type).append('=');
      return (berEncoded ? s.append('#').append(value.hex()) : DnText.escape(s, value.utf8()))
          .toString();
    }
  }

  /**
   * Parses the RFC 4514 string form.
   *
   * @throws IllegalArgumentException with the index of the first bad character
   */
  public static Dn parse(String text) {
    return new DnText(text).parse();
  }

  /** Returns the DN of this entry's parent; the root has no parent. */
  public Dn parent() {
    if (rdns.isEmpty()) {
      throw new IllegalStateException("the root DN has no parent");
    }
    return new Dn(rdns.subList(1, rdns.size()));
  }

  /** Returns the DN of the child {@code rdn} of this entry. */
  public Dn child(Rdn rdn) {
    List<Rdn> l = new ArrayList<>(rdns.size() + 1);
    l.add(rdn);
    l.addAll(rdns);
    return new Dn(l);
  }

  /** Returns true for the root DN. */
  public boolean isRoot() {
    return rdns.isEmpty();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < rdns.size(); i++) {
      s.append(i == 0 ? "" : ",").append(rdns.get(i));
    }
    return s.toString();
  }
}
