package dev.ferry.ldap;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The server-side sort request control of RFC 2891: the keys a search's entries are to be sorted
 * by, each an attribute, an ordering rule (or null for the attribute's own) and whether the
 * order is reversed. {@link Result} is the response control's value.
 *
 * <pre>{@code
 * Control c = new SortControl(List.of(new SortControl.Key("sn", null, false))).toControl(true);
 * assert SortControl.from(c).keys().get(0).attribute().equals("sn");
 * }</pre>
 */
public record SortControl(List<Key> keys) {
  /** The request control's OID: {@value}. */
  public static final String OID = "1.2.840.113556.1.4.473";
  /** The response control's OID: {@value}. */
  public static final String RESPONSE_OID = "1.2.840.113556.1.4.474";

  private static final int ORDERING_RULE_TAG = 0x80; // [0] MatchingRuleId
  private static final int REVERSE_TAG = 0x81; // [1] BOOLEAN
  private static final int ATTRIBUTE_TYPE_TAG = 0x80; // [0] in the response

  /** One sort key: {@code orderingRule} is null for the attribute's ordering rule. */
  public record Key(String attribute, String orderingRule, boolean reverse) {
    public Key {
      Objects.requireNonNull(attribute, "attribute");
    }
  }

  public SortControl {
    keys = List.copyOf(keys);
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("a sort control needs a key");
    }
  }

  /** Returns the request control carrying this value. */
  public Control toControl(boolean critical) {
    return ControlValues.encode(OID, critical, w -> {
      w.writeStartSequence();
      for (Key k : keys) {
        w.writeStartSequence();
        w.writeOctetString(ByteString.encodeUtf8(k.attribute()));
        if (k.orderingRule() != null) {
          w.writeOctetString(ORDERING_RULE_TAG, ByteString.encodeUtf8(k.orderingRule()));
        }
        if (k.reverse()) {
          w.writeBoolean(REVERSE_TAG, true);
        }
        w.writeEndSequence();
      }
      w.writeEndSequence();
    });
  }

  /**
   * Decodes a sort request control.
   *
   * @throws IllegalArgumentException if the control is not a sort request
   * @throws BerException if its value is malformed or has no key
   */
  public static SortControl from(Control control) throws BerException {
    List<Key> keys = ControlValues.decode(control, OID, "sort request", r -> {
      List<Key> read = new ArrayList<>();
      r.readStartSequence();
      while (r.hasNextElement()) {
        r.readStartSequence();
        String attribute = r.readOctetString().utf8();
        String rule = null;
        boolean reverse = false;
        if (r.hasNextElement() && r.peekType() == ORDERING_RULE_TAG) {
          rule = r.readOctetString(ORDERING_RULE_TAG).utf8();
        }
        if (r.hasNextElement() && r.peekType() == REVERSE_TAG) {
          reverse = r.readBoolean(REVERSE_TAG);
        }
        r.readEndSequence();
        read.add(new Key(attribute, rule, reverse));
      }
      r.readEndSequence();
      return read;
    });
    if (keys.isEmpty()) {
      throw new BerException("a sort control without a key", 0, "sort request");
    }
    return new SortControl(keys);
  }

  /** The sort response control's value: the result and, for a failure, the attribute. */
  public record Result(ResultCode code, String attribute) {
    public Result {
      Objects.requireNonNull(code, "code");
    }

    /** Returns the response control carrying this value. */
    public Control toControl() {
      return ControlValues.encode(RESPONSE_OID, false, w -> {
        w.writeStartSequence();
        w.writeEnumerated(code.value());
        if (attribute != null) {
          w.writeOctetString(ATTRIBUTE_TYPE_TAG, ByteString.encodeUtf8(attribute));
        }
        w.writeEndSequence();
      });
    }

    /**
     * Decodes a sort response control.
     *
     * @throws IllegalArgumentException if the control is not a sort response
     * @throws BerException if its value is malformed
     */
    public static Result from(Control control) throws BerException {
      return ControlValues.decode(control, RESPONSE_OID, "sort response", r -> {
        r.readStartSequence();
        ResultCode code = ResultCode.valueOf(r.readEnumerated());
        String attribute = r.hasNextElement() ? r.readOctetString(ATTRIBUTE_TYPE_TAG).utf8()
            : null;
        r.readEndSequence();
        return new Result(code, attribute);
      });
    }
  }
}
