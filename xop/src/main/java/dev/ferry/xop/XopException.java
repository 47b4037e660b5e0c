package dev.ferry.xop;

import dev.ferry.bytes.DecodeException;

/**
 * An XOP package that cannot be read: no root part, a dangling or non-{@code cid:} reference, a
 * duplicate Content-ID, or XML that breaks the rules or limits. The context names the part or
 * the element, for example {@code root > xop:Include href="cid:1.x@y"}.
 */
public final class XopException extends DecodeException {
  private static final long serialVersionUID = 1L;

  public XopException(String reason, long byteOffset, String context) {
    super(reason, byteOffset, context);
  }

  public XopException(String reason, long byteOffset, String context, Throwable cause) {
    super(reason, byteOffset, context, cause);
  }

  private XopException(String limitName, long limit, long actual, long offset, String context) {
    super(limitReason(limitName, limit, actual), offset, context, true, limitName, limit, actual,
        null);
  }

  /** Creates the error for an {@link XopLimits} or {@link XmlLimits} limit. */
  public static XopException limitExceeded(String limitName, long limit, long actual,
      long byteOffset, String context) {
    return new XopException(limitName, limit, actual, byteOffset, context);
  }
}
