package dev.ferry.ldap;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;

/**
 * The virtual list view request control of draft-ietf-ldapext-ldapv3-vlv-09: a window of a
 * sorted search's entries, {@code beforeCount} entries before a target and {@code afterCount}
 * after it, the target given by its position ({@code offset} of {@code contentCount}, the
 * client's estimate of the list's size; 0 if it has none) or, when {@code assertion} is not
 * null, as the first entry whose first sort key is not less than it. {@link Result} is the
 * response control's value.
 *
 * <pre>{@code
 * Control c = VirtualListView.byOffset(0, 9, 1, 0).toControl(true); // the first ten entries
 * assert VirtualListView.from(c).afterCount() == 9;
 * }</pre>
 */
public record VirtualListView(int beforeCount, int afterCount, int offset, int contentCount,
    ByteString assertion, ByteString contextId) {
  /** The request control's OID: {@value}. */
  public static final String OID = "2.16.840.1.113730.3.4.9";
  /** The response control's OID: {@value}. */
  public static final String RESPONSE_OID = "2.16.840.1.113730.3.4.10";
  /** The response's result when no sort control came with the request. */
  public static final int SORT_CONTROL_MISSING = 60;
  /** The response's result when the offset is past the client's count. */
  public static final int OFFSET_RANGE_ERROR = 61;

  private static final int BY_OFFSET_TAG = 0xa0; // [0] SEQUENCE
  private static final int GREATER_OR_EQUAL_TAG = 0x81; // [1] AssertionValue

  public VirtualListView {
    if (beforeCount < 0 || afterCount < 0 || offset < 0 || contentCount < 0) {
      throw new IllegalArgumentException("negative count or offset: " + beforeCount + ", "
          + afterCount + ", " + offset + ", " + contentCount);
    }
  }

  /** A window around the entry at {@code offset} (1 is the first) of about {@code count}. */
  public static VirtualListView byOffset(int beforeCount, int afterCount, int offset,
      int contentCount) {
    return new VirtualListView(beforeCount, afterCount, offset, contentCount, null, null);
  }

  /** A window around the first entry whose first sort key is not less than {@code value}. */
  public static VirtualListView byValue(int beforeCount, int afterCount, ByteString value) {
    return new VirtualListView(beforeCount, afterCount, 0, 0, value, null);
  }

  /** Returns the request control carrying this value. */
  public Control toControl(boolean critical) {
    return ControlValues.encode(OID, critical, w -> {
      w.writeStartSequence();
      w.writeInteger(beforeCount);
      w.writeInteger(afterCount);
      if (assertion == null) {
        w.writeStartSequence(BY_OFFSET_TAG);
        w.writeInteger(offset);
        w.writeInteger(contentCount);
        w.writeEndSequence();
      } else {
        w.writeOctetString(GREATER_OR_EQUAL_TAG, assertion);
      }
      if (contextId != null) {
        w.writeOctetString(contextId);
      }
      w.writeEndSequence();
    });
  }

  /**
   * Decodes a virtual list view request control.
   *
   * @throws IllegalArgumentException if the control is not one
   * @throws BerException if its value is malformed or a count is negative
   */
  public static VirtualListView from(Control control) throws BerException {
    return ControlValues.decode(control, OID, "virtual list view", r -> {
      r.readStartSequence();
      int before = r.readInteger();
      int after = r.readInteger();
      int offset = 0;
      int count = 0;
      ByteString assertion = null;
      if (r.peekType() == BY_OFFSET_TAG) {
        r.readStartSequence(BY_OFFSET_TAG);
        offset = r.readInteger();
        count = r.readInteger();
        r.readEndSequence();
      } else {
        assertion = r.readOctetString(GREATER_OR_EQUAL_TAG);
      }
      ByteString context = r.hasNextElement() ? r.readOctetString() : null;
      r.readEndSequence();
      if (before < 0 || after < 0 || offset < 0 || count < 0) {
        throw new BerException("negative count or offset in a virtual list view", 0,
            "virtualListView");
      }
      return new VirtualListView(before, after, offset, count, assertion, context);
    });
  }

  /**
   * The response control's value: the target's position (1 is the first entry), the list's
   * size, the result ({@code 0} for success, {@link #SORT_CONTROL_MISSING}, {@link
   * #OFFSET_RANGE_ERROR} or an LDAP result code) and an optional context.
   */
  public record Result(int targetPosition, int contentCount, int result, ByteString contextId) {
    /** Returns the response control carrying this value. */
    public Control toControl() {
      return ControlValues.encode(RESPONSE_OID, false, w -> {
        w.writeStartSequence();
        w.writeInteger(targetPosition);
        w.writeInteger(contentCount);
        w.writeEnumerated(result);
        if (contextId != null) {
          w.writeOctetString(contextId);
        }
        w.writeEndSequence();
      });
    }

    /**
     * Decodes a virtual list view response control.
     *
     * @throws IllegalArgumentException if the control is not one
     * @throws BerException if its value is malformed
     */
    public static Result from(Control control) throws BerException {
      return ControlValues.decode(control, RESPONSE_OID, "virtual list view response", r -> {
        r.readStartSequence();
        int target = r.readInteger();
        int count = r.readInteger();
        int result = r.readEnumerated();
        ByteString context = r.hasNextElement() ? r.readOctetString() : null;
        r.readEndSequence();
        return new Result(target, count, result, context);
      });
    }
  }
}
