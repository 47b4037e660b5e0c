package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An attribute description and its values (RFC 4511 PartialAttribute). Decoded values are slices
 * of the received PDU; call {@link ByteString#toByteArray()} to own a copy.
 */
public record Attribute(String description, List<ByteString> values) {

  public Attribute {
    Objects.requireNonNull(description, "description");
    values = FrozenList.trusted(values);
  }

  /** Returns an attribute with UTF-8 string values. */
  public static Attribute of(String description, String... values) {
    List<ByteString> v = new ArrayList<>(values.length);
    for (String s : values) {
      v.add(ByteString.encodeUtf8(s));
    }
    return new Attribute(description, v);
  }

  /** Returns the first value as UTF-8 text, or null if there is none. */
  public String firstValueAsString() {
    return values.isEmpty() ? null : values.get(0).utf8();
  }
}
