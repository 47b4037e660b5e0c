package dev.ferry.bytes;

/**
 * A configured limit was exceeded; names the limit, its value and the value seen.
 *
 * <p>Decoders of other modules report limits with their own exception type through
 * {@link DecodeException#limitExceeded}; this class serves the {@code bytes} module itself (for
 * example {@code Spool.maxBytes}).
 */
public final class LimitExceededException extends DecodeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception for {@code limitName} with value {@code limit} and {@code actual}. */
  public LimitExceededException(String limitName, long limit, long actual, long byteOffset) {
    super(limitReason(limitName, limit, actual), byteOffset, null, true, limitName, limit,
        actual, null);
  }
}
