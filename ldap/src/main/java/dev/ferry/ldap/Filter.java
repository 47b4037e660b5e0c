package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.List;
import java.util.Objects;

/**
 * A search filter (RFC 4511 section 4.5.1.7), one record per choice. {@link #parse} reads the
 * string form of RFC 4515 and every record's {@code toString()} writes it, escaping the
 * characters RFC 4515 requires and every byte outside printable ASCII.
 *
 * <pre>{@code
 * Filter f = Filter.parse("(&(objectClass=Person)(|(sn=Jensen)(cn=Babs J*)))");
 * assert f instanceof Filter.And and && and.filters().size() == 2;
 * assert f.toString().equals("(&(objectClass=Person)(|(sn=Jensen)(cn=Babs J*)))");
 * }</pre>
 */
public sealed interface Filter {

  /**
   * Parses the RFC 4515 string form (an empty {@code (&)} or {@code (|)} is accepted, RFC 4526).
   *
   * @throws IllegalArgumentException with the index of the first bad character if {@code text}
   *     is not a filter or nests deeper than {@link LdapLimits#DEFAULT_MAX_FILTER_DEPTH}
   */
  static Filter parse(String text) {
    return new FilterParser(text, LdapLimits.DEFAULT_MAX_FILTER_DEPTH).parse();
  }

  /** Returns {@code (attribute=value)} with a UTF-8 value. */
  static Filter equality(String attribute, String value) {
    return new Equality(attribute, ByteString.encodeUtf8(value));
  }

  /** Returns {@code (attribute=*)}. */
  static Filter present(String attribute) {
    return new Present(attribute);
  }

  /** and [0] SET OF filter. */
  record And(List<Filter> filters) implements Filter {
    public And {
      filters = List.copyOf(filters);
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** or [1] SET OF filter. */
  record Or(List<Filter> filters) implements Filter {
    public Or {
      filters = List.copyOf(filters);
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** not [2] filter. */
  record Not(Filter filter) implements Filter {
    public Not {
      Objects.requireNonNull(filter, "filter");
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** equalityMatch [3]. */
  record Equality(String attribute, ByteString value) implements Filter {
    public Equality {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /**
   * substrings [4]: {@code initial} and {@code finalValue} may be null; at least one of the three
   * parts must be present.
   */
  record Substrings(String attribute, ByteString initial, List<ByteString> any,
      ByteString finalValue) implements Filter {
    public Substrings {
      Objects.requireNonNull(attribute, "attribute");
      any = List.copyOf(any);
      if (initial == null && any.isEmpty() && finalValue == null) {
        throw new IllegalArgumentException("substrings filter without substrings");
      }
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** greaterOrEqual [5]. */
  record GreaterOrEqual(String attribute, ByteString value) implements Filter {
    public GreaterOrEqual {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** lessOrEqual [6]. */
  record LessOrEqual(String attribute, ByteString value) implements Filter {
    public LessOrEqual {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** present [7]. */
  record Present(String attribute) implements Filter {
    public Present {
      Objects.requireNonNull(attribute, "attribute");
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /** approxMatch [8]. */
  record Approx(String attribute, ByteString value) implements Filter {
    public Approx {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }

  /**
   * extensibleMatch [9]: {@code matchingRule} and {@code attribute} may be null, but not both.
   */
  record Extensible(String matchingRule, String attribute, ByteString value,
      boolean dnAttributes) implements Filter {
    public Extensible {
      Objects.requireNonNull(value, "value");
      if (matchingRule == null && attribute == null) {
        throw new IllegalArgumentException("extensible match without rule or attribute");
      }
    }

    @Override
    public String toString() {
      return FilterText.format(this);
    }
  }
}
