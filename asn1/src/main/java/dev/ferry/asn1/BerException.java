package dev.ferry.asn1;

import dev.ferry.bytes.DecodeException;

/**
 * BER input that cannot be decoded: malformed, truncated, against the chosen {@link BerRules},
 * or over a {@link BerLimits} limit. The byte offset is absolute (from the start of the stream or
 * of the byte sequence given to the reader).
 */
public class BerException extends DecodeException {
  private static final long serialVersionUID = 1L;

  /** Creates a malformed-input error at {@code byteOffset}. */
  public BerException(String reason, long byteOffset, String context) {
    super(reason, byteOffset, context);
  }

  /** Creates a malformed-input error at {@code byteOffset} caused by {@code cause}. */
  public BerException(String reason, long byteOffset, String context, Throwable cause) {
    super(reason, byteOffset, context, cause);
  }

  private BerException(String limitName, long limit, long actual, long byteOffset,
      String context, boolean fatal) {
    super(limitReason(limitName, limit, actual), byteOffset, context, fatal, limitName, limit,
        actual, null);
  }

  /** Returns a limit violation of {@code limitName} (such as {@code BerLimits.maxDepth}). */
  public static BerException limitExceeded(String limitName, long limit, long actual,
      long byteOffset, String context) {
    return new BerException(limitName, limit, actual, byteOffset, context, true);
  }

  /**
   * Returns a limit violation inside an element that was read whole: the stream around it can
   * still be read ({@link #isFatal()} is false), so a protocol may answer the element with an
   * error and go on (an LDAP server refusing one search's filter, say).
   */
  public static BerException limitExceededInElement(String limitName, long limit, long actual,
      long byteOffset, String context) {
    return new BerException(limitName, limit, actual, byteOffset, context, false);
  }
}
