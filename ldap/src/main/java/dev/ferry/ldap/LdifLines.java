package dev.ferry.ldap;

import java.util.Arrays;

/**
 * The push core of LDIF reading (RFC 2849 section 2 and its note 2): fed bytes in chunks, it
 * finds logical lines (folding undone), drops comments, and reports the blank lines that separate
 * records. It does no I/O and keeps no reference to a chunk after returning; what spans chunks is
 * the logical line being joined, at most {@link LdifLimits#maxLineBytes()} bytes.
 *
 * <pre>
 * input    = *( line / comment / blank )
 * line     = first *byte LF *( SP *byte LF )   ; SP at a line's start continues the line before
 * comment  = "#" *byte LF *( SP *byte LF )     ; folded like any line, then dropped
 * blank    = LF                                  ; separates records
 * LF       = %x0A / %x0D %x0A                    ; the last line may end without one
 * </pre>
 *
 * <p>Each call to {@link #next} consumes at least one byte, returns an event, or returns
 * {@link Step#NEED_INPUT}; after an error every call rethrows it.
 */
final class LdifLines {
  /** What {@link #next} found. */
  enum Step {
    /** A logical line is complete: read it with {@link #line()} before the next call. */
    LINE,
    /** A blank line: the end of a record, if one was open. */
    SEPARATOR,
    /** Every byte given was consumed: call again with more, or {@link #finish()}. */
    NEED_INPUT,
    /** The input ended ({@link #finish()} only). */
    END
  }

  private enum State {
    LINE_START, // at the start of a physical line: SP folds, LF is blank, '#' starts a comment
    CONTENT,    // inside a line that is kept: its bytes go into the carry
    COMMENT,    // inside a comment line: its bytes are skipped
    FAILED      // sticky: every call rethrows the first error
  }

  private static final byte[] CR = {'\r'};

  private final int maxLineBytes;
  private State state = State.LINE_START;
  private byte[] carry = new byte[256];
  private int carryLength;
  private boolean open;        // a logical line is open, waiting to see whether it is folded
  private boolean openComment; // ... and it is a comment
  private boolean folded;      // the physical line being read continues an earlier one
  private boolean pendingCr;   // the last chunk ended in a CR of this line, not yet appended
  private long physicalLine = 1;
  private long offset;         // stream offset of chunk[start] in the current call
  private int chunkStart;
  private long lineNumber;
  private long lineOffset;
  private int consumed;
  private Step event;
  private LdifException failure;

  LdifLines(LdifLimits limits) {
    this.maxLineBytes = limits.maxLineBytes();
  }

  /**
   * Reads from {@code a[start, end)}; {@link #consumed()} says how much was used. Bytes not
   * consumed must be passed again.
   */
  Step next(byte[] a, int start, int end) throws LdifException {
    rethrowIfFailed();
    chunkStart = start;
    event = null;
    int p = start;
    try {
      while (p < end && event == null) {
        p = switch (state) {
          case LINE_START -> lineStart(a, p);
          case CONTENT -> content(a, p, end);
          case COMMENT -> comment(a, p, end);
          case FAILED -> throw failure;
        };
      }
    } catch (LdifException e) {
      state = State.FAILED;
      failure = e;
      throw e;
    }
    consumed = p - start;
    offset += consumed;
    return event != null ? event : Step.NEED_INPUT;
  }

  /** Returns how many bytes the last {@link #next} call consumed. */
  int consumed() {
    return consumed;
  }

  /** Ends the input: returns a last {@link Step#LINE} if one is open, then {@link Step#END}. */
  Step finish() throws LdifException {
    rethrowIfFailed();
    consumed = 0;
    pendingCr = false; // a CR at the very end is a line end without its LF
    state = State.LINE_START;
    boolean line = open && !openComment;
    open = false;
    return line ? Step.LINE : Step.END;
  }

  /** The bytes of the last logical line are {@code line()[0, lineLength())}. */
  byte[] line() {
    return carry;
  }

  int lineLength() {
    return carryLength;
  }

  /** The 1-based number of the physical line the last logical line started on. */
  long lineNumber() {
    return lineNumber;
  }

  /** The stream offset of the last logical line's first byte. */
  long lineOffset() {
    return lineOffset;
  }

  /** The 1-based number of the physical line being read. */
  long physicalLine() {
    return physicalLine;
  }

  /** The stream offset of the next byte not yet consumed. */
  long offset() {
    return offset;
  }

  // --- one method per state; each returns the next position and may set the event -------------

  private int lineStart(byte[] a, int p) throws LdifException {
    byte b = a[p];
    if (b == ' ') {
      if (!open) {
        throw new LdifException("a folded line (starting with a space) continues no line",
            physicalLine, offsetAt(p), null);
      }
      folded = true;
      state = openComment ? State.COMMENT : State.CONTENT;
      return p + 1;
    }
    if (open && !openComment) {
      open = false;
      event = Step.LINE; // this byte starts the next line: not consumed
      return p;
    }
    open = false;
    if (b == '\n') {
      physicalLine++;
      event = Step.SEPARATOR;
      return p + 1;
    }
    open = true;
    folded = false;
    openComment = b == '#';
    if (openComment) {
      state = State.COMMENT;
      return p + 1;
    }
    carryLength = 0;
    lineNumber = physicalLine;
    lineOffset = offsetAt(p);
    state = State.CONTENT;
    return p;
  }

  private int content(byte[] a, int p, int end) throws LdifException {
    if (pendingCr) { // the last chunk ended in CR: content unless an LF follows it
      pendingCr = false;
      if (a[p] != '\n') {
        append(CR, 0, 1);
      }
    }
    int lf = indexOfLf(a, p, end);
    if (lf == end) {
      pendingCr = a[end - 1] == '\r';
      append(a, p, pendingCr ? end - 1 : end);
      return end;
    }
    append(a, p, lf > p && a[lf - 1] == '\r' ? lf - 1 : lf);
    physicalLine++;
    state = State.LINE_START;
    if (carryLength == 0 && !folded) { // a lone CR LF: blank
      open = false;
      event = Step.SEPARATOR;
    }
    return lf + 1;
  }

  private int comment(byte[] a, int p, int end) {
    int lf = indexOfLf(a, p, end);
    if (lf == end) {
      return end;
    }
    physicalLine++;
    state = State.LINE_START;
    return lf + 1;
  }

  private static int indexOfLf(byte[] a, int p, int end) {
    while (p < end && a[p] != '\n') {
      p++;
    }
    return p;
  }

  private void append(byte[] a, int from, int to) throws LdifException {
    int n = to - from;
    if ((long) carryLength + n > maxLineBytes) {
      throw lineTooLong((long) carryLength + n);
    }
    if (carryLength + n > carry.length) {
      int grown = (int) Math.min(Math.max(carryLength + n, 2L * carry.length), maxLineBytes);
      carry = Arrays.copyOf(carry, grown);
    }
    System.arraycopy(a, from, carry, carryLength, n);
    carryLength += n;
  }

  private LdifException lineTooLong(long actual) {
    return LdifException.limitExceeded("LdifLimits.maxLineBytes", maxLineBytes, actual,
        lineNumber, lineOffset);
  }

  private long offsetAt(int p) {
    return offset + (p - chunkStart);
  }

  private void rethrowIfFailed() throws LdifException {
    if (failure != null) {
      throw failure;
    }
  }
}
