package dev.ferry.bytes;

import java.io.IOException;

/**
 * Input that cannot be decoded: malformed, truncated, or over a configured limit.
 *
 * <p>Every decoder in Ferry reports bad input with a subclass of this exception. It carries
 * where the problem is ({@link #byteOffset()}, absolute and 0-based, or -1 when unknown), what it
 * is ({@link #reason()}, without the location), and the logical context ({@link #context()}, for
 * example {@code part 3 > header "Content-ID"}). The message combines the three:
 * {@code <reason> at byte <n> [<context>]}.
 *
 * <p>A limit violation also names the limit ({@link #limitName()}), its value and the value seen.
 */
public class DecodeException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String reason;
  private final long byteOffset;
  private final String context;
  private final boolean fatal;
  private final String limitName;
  private final long limitValue;
  private final long actualValue;

  /** Creates a fatal decode error that is not a limit violation. */
  public DecodeException(String reason, long byteOffset, String context) {
    this(reason, byteOffset, context, true, null, 0, 0, null);
  }

  /** Creates a fatal decode error caused by {@code cause}. */
  public DecodeException(String reason, long byteOffset, String context, Throwable cause) {
    this(reason, byteOffset, context, true, null, 0, 0, cause);
  }

  /**
   * Creates a limit violation: the value seen, {@code actualValue}, exceeds {@code limitValue} of
   * the limit called {@code limitName} (for example {@code MimeLimits.maxParts}).
   */
  public static DecodeException limitExceeded(
      String limitName, long limitValue, long actualValue, long byteOffset, String context) {
    return new DecodeException(limitReason(limitName, limitValue, actualValue), byteOffset,
        context, true, limitName, limitValue, actualValue, null);
  }

  protected DecodeException(String reason, long byteOffset, String context, boolean fatal,
      String limitName, long limitValue, long actualValue, Throwable cause) {
    super(format(reason, byteOffset, context), cause);
    this.reason = reason;
    this.byteOffset = byteOffset;
    this.context = context == null ? "" : context;
    this.fatal = fatal;
    this.limitName = limitName;
    this.limitValue = limitValue;
    this.actualValue = actualValue;
  }

  /** Returns the standard reason text of a limit violation. */
  protected static String limitReason(String limitName, long limitValue, long actualValue) {
    return limitName + " exceeded: " + actualValue + " > " + limitValue;
  }

  private static String format(String reason, long byteOffset, String context) {
    StringBuilder s = new StringBuilder(reason);
    if (byteOffset >= 0) {
      s.append(" at byte ").append(byteOffset);
    }
    if (context != null && !context.isEmpty()) {
      s.append(" [").append(context).append(']');
    }
    return s.toString();
  }

  /** Returns what is wrong, without the location. */
  public String reason() {
    return reason;
  }

  /** Returns the absolute 0-based offset of the first offending byte, or -1 if unknown. */
  public long byteOffset() {
    return byteOffset;
  }

  /** Returns the logical location, such as {@code part 2 > body}; empty when there is none. */
  public String context() {
    return context;
  }

  /** Returns true if the stream cannot be read any further after this error. */
  public boolean isFatal() {
    return fatal;
  }

  /** Returns true if this error reports a limit that was exceeded. */
  public boolean isLimitExceeded() {
    return limitName != null;
  }

  /** Returns the limit's name, such as {@code MimeLimits.maxParts}, or null. */
  public String limitName() {
    return limitName;
  }

  /** Returns the configured value of the exceeded limit (0 if this is no limit violation). */
  public long limitValue() {
    return limitValue;
  }

  /** Returns the value seen that exceeded the limit (0 if this is no limit violation). */
  public long actualValue() {
    return actualValue;
  }
}
