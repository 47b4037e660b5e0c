package dev.ferry.soap;

import dev.ferry.bytes.DecodeException;

/** A message that is not a well-formed SOAP envelope, or breaks a {@link SoapLimits} limit. */
public final class SoapException extends DecodeException {
  private static final long serialVersionUID = 1L;

  public SoapException(String reason, long byteOffset, String context) {
    super(reason, byteOffset, context);
  }

  public SoapException(String reason, long byteOffset, String context, Throwable cause) {
    super(reason, byteOffset, context, cause);
  }

  private SoapException(String limitName, long limit, long actual, long offset, String context) {
    super(limitReason(limitName, limit, actual), offset, context, true, limitName, limit, actual,
        null);
  }

  /** Creates the error for a {@link SoapLimits} limit. */
  public static SoapException limitExceeded(String limitName, long limit, long actual, long offset,
      String context) {
    return new SoapException(limitName, limit, actual, offset, context);
  }
}
