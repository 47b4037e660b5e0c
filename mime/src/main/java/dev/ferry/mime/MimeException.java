package dev.ferry.mime;

import dev.ferry.bytes.DecodeException;

/**
 * Malformed MIME input, or input over a {@link MimeLimits} limit. The message names the byte
 * offset and the part, for example {@code missing closing delimiter at byte 4711 [part 2 > body]}.
 */
public final class MimeException extends DecodeException {
  private static final long serialVersionUID = 1L;

  /** Creates an error for malformed input at {@code byteOffset} in {@code context}. */
  public MimeException(String reason, long byteOffset, String context) {
    super(reason, byteOffset, context);
  }

  /** Creates an error caused by {@code cause}, for example an I/O error inside a part. */
  public MimeException(String reason, long byteOffset, String context, Throwable cause) {
    super(reason, byteOffset, context, cause);
  }

  private MimeException(String limitName, long limit, long actual, long byteOffset,
      String context) {
    super(limitReason(limitName, limit, actual), byteOffset, context, true, limitName, limit,
        actual, null);
  }

  /** Creates the error for a {@link MimeLimits} limit that was exceeded. */
  public static MimeException limitExceeded(String limitName, long limit, long actual,
      long byteOffset, String context) {
    return new MimeException(limitName, limit, actual, byteOffset, context);
  }
}
