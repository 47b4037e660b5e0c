package dev.ferry.ldap;

import dev.ferry.bytes.DecodeException;

/**
 * LDIF input that cannot be read: malformed, over an {@link LdifLimits} limit, or naming a value
 * by a URL that may not be read. Besides the byte offset it carries the 1-based line number of
 * the (first physical) line at fault, which is also the start of its context, as in
 * {@code invalid base64 value at byte 812 [line 31 > attribute "jpegPhoto"]}.
 */
public final class LdifException extends DecodeException {
  private static final long serialVersionUID = 1L;

  private final long lineNumber;

  /** Creates an error for malformed input at {@code lineNumber} and {@code byteOffset}. */
  public LdifException(String reason, long lineNumber, long byteOffset, String detail) {
    this(reason, lineNumber, byteOffset, detail, null);
  }

  /** Creates an error caused by {@code cause}, for example a file a URL value names. */
  public LdifException(String reason, long lineNumber, long byteOffset, String detail,
      Throwable cause) {
    super(reason, byteOffset, context(lineNumber, detail), cause);
    this.lineNumber = lineNumber;
  }

  private LdifException(String limitName, long limit, long actual, long lineNumber,
      long byteOffset) {
    super(limitReason(limitName, limit, actual), byteOffset, context(lineNumber, null), true,
        limitName, limit, actual, null);
    this.lineNumber = lineNumber;
  }

  /** Returns the error for an {@link LdifLimits} limit that was exceeded. */
  static LdifException limitExceeded(String limitName, long limit, long actual, long lineNumber,
      long byteOffset) {
    return new LdifException(limitName, limit, actual, lineNumber, byteOffset);
  }

  private static String context(long lineNumber, String detail) {
    String line = "line " + lineNumber;
    return detail == null || detail.isEmpty() ? line : line + " > " + detail;
  }

  /** Returns the 1-based number of the line at fault. */
  public long lineNumber() {
    return lineNumber;
  }
}
