package dev.ferry.mime;

import dev.ferry.mime.internal.Boundaries;
import dev.ferry.mime.internal.Bytes;
import dev.ferry.mime.internal.DelimiterSearch;
import java.nio.charset.StandardCharsets;

/**
 * The push core of Ferry's MIME multipart parsing: a state machine fed chunks of any size, down
 * to one byte, that reports part starts (with headers), body slices, part ends and the end of
 * the message. It does no I/O; {@link MultipartReader} is the blocking facade over it.
 *
 * <pre>
 * multipart-body := [preamble CRLF] dash-boundary padding CRLF body-part
 *                   *(CRLF dash-boundary padding CRLF body-part)
 *                   CRLF dash-boundary "--" [padding [CRLF epilogue]]
 * body-part      := *(header-field CRLF) [CRLF *OCTET]
 * dash-boundary  := "--" boundary          padding := *(SP / HTAB)
 * </pre>
 *
 * <p><b>Parts without a body.</b> As RFC 2046 allows, a part may end right after its header
 * section: {@code --b CRLF Content-Type: image/gif CRLF CRLF --b} is a part with an empty body,
 * the empty line's CRLF being the delimiter's. A line that starts with the dash-boundary is a
 * delimiter line wherever it is (RFC 2046 forbids such lines inside a part), so it ends a header
 * section that has no empty line too ({@code --b CRLF A: 1 CRLF --b}: the delimiter claims the
 * last header line's CRLF, a header section that RFC 5322 would call unfinished; mime4j reads it
 * the same way).
 *
 * <p><b>Feeding.</b> Call {@link #next(byte[], int, int)} with the unconsumed input; it consumes
 * {@link #consumed()} bytes of it and returns an {@link Event}. Whatever was not consumed must be
 * passed again, in front of new input, on the next call. The parser reads the caller's array
 * only during the call. A delimiter split across chunks is carried as a count of matched
 * delimiter bytes, never as a copy of the input.
 *
 * <p><b>Searching.</b> The delimiter (CRLF "--" boundary) is found by sampling one byte pair
 * every delimiter length less one (or, on the Vector API, by testing windows of starts at once),
 * so body bytes that cannot be part of a delimiter are skipped, not examined one by one.
 *
 * <p><b>Body slices.</b> After {@link Event#BODY}, {@link #bodyArray()}, {@link #bodyOffset()}
 * and {@link #bodyLength()} name the bytes: usually a range of the caller's own array (no copy),
 * or, after a near-miss across chunks, a range of this parser's delimiter bytes.
 *
 * <p><b>Line ends.</b> Strict by default: delimiters and header lines end in CRLF. With
 * {@code lenientLineEnds}, a bare LF is accepted too, consistently: the delimiter is then LF "--"
 * boundary, and a CR right before that LF belongs to the line break, not to the body.
 *
 * <p><b>Header fields.</b> Strict by default: a malformed field or Content-Type fails the
 * message. With {@code lenientHeaders}, the parser reads past a malformed field or parameter and
 * reports it in the part's {@link MimeHeaders#warnings()}.
 *
 * <p><b>Errors</b> are {@link MimeException}s with the absolute byte offset and the part; after
 * one, the parser is failed and rethrows it. Not thread-safe.
 */
public final class MultipartParser {

  /** What a call to {@code next} found. */
  public enum Event {
    /** All input was consumed; feed more, or call {@link #endOfInput()}. */
    NEED_INPUT,
    /** A part's header section ended; {@link #headers()} and {@link #partIndex()} describe it. */
    PART_START,
    /** Body bytes of the current part: {@link #bodyArray()} at {@link #bodyOffset()}. */
    BODY,
    /** The current part ended at a delimiter. */
    PART_END,
    /** The closing delimiter was read; what follows is epilogue and is discarded. */
    END
  }

  private enum State {
    PREAMBLE,        // nothing read yet, or preamble bytes: searching for the first delimiter
    AFTER_BOUNDARY,  // a delimiter was matched: "--", padding or a line break follows
    CLOSE_DASH,      // "-" after the boundary: the second "-" of a closing delimiter must follow
    PADDING,         // SP or HTAB after the boundary: more of it, then the line break
    LINE_CR,         // CR after the boundary (and padding): LF must follow
    HEADERS,         // after a delimiter line: header lines until an empty one or a delimiter
    BODY_START,      // after the header section: a dash-boundary here ends an empty body
    BODY,            // body bytes until the next delimiter
    EPILOGUE,        // after the closing delimiter: bytes are discarded
    FAILED           // sticky: every call rethrows the first error
  }

  private final DelimiterSearch search;
  /** CR followed by the delimiter: the bytes a carried partial match stands for. */
  private final byte[] crDelimiter;
  /** The delimiter's line break (CRLF, or LF when lenient): where its dash-boundary starts. */
  private final int lineBreakBytes;
  /** Where the dash-boundary starts in {@link #crDelimiter}. */
  private final int dashStart;
  private final boolean lenient;
  private final boolean lenientHeaders;
  private final MimeLimits limits;

  private State state = State.PREAMBLE;
  private MimeException failure;
  private long offset; // absolute offset of the next byte the caller will pass
  private int pos; // position in the current call's input
  private int callStart; // where the current call's input starts; its offset is `offset`
  private int limitEnd; // end of the current call's input, clipped to maxMessageBytes

  // Delimiter carried across chunks: the previous chunk ended with (CR +) delimiter[0, matched).
  private int matched;
  private boolean pendingCr; // lenient only: a CR held back in case LF "--" boundary follows
  private int pendingFrom; // carried bytes that turned out to be body: crDelimiter[from, to)
  private int pendingTo;
  // A dash-boundary at the start of a header line or of a body, carried as a count of its bytes.
  private int dashMatched;
  private boolean atLineStart; // in HEADERS: no byte of the current line looked at yet
  // What earlier calls learned about input the caller passes again (it must pass all of it):
  private int delimiterAhead = -1; // distance to a delimiter already found, or -1
  private int bodyAhead; // bytes at the front already known to hold no delimiter

  private byte[] headerBuf = new byte[256];
  private int headerLen;
  private int lineStart;
  private int fieldCount;
  private long headerStartOffset;
  private int partIndex = -1;
  private long partBytes;
  private long preambleBytes;
  private long epilogueBytes;

  private MimeHeaders headers;
  private byte[] bodyArray;
  private int bodyOffset;
  private int bodyLength;
  private int consumed;

  private MultipartParser(Builder b) throws MimeException {
    this.limits = b.limits;
    this.lenient = b.lenientLineEnds;
    this.lenientHeaders = b.lenientHeaders;
    byte[] boundary = checkBoundary(b.boundary, limits, lenient);
    byte[] prefix = lenient ? new byte[] {'\n', '-', '-'} : new byte[] {'\r', '\n', '-', '-'};
    byte[] delimiter = new byte[prefix.length + boundary.length];
    System.arraycopy(prefix, 0, delimiter, 0, prefix.length);
    System.arraycopy(boundary, 0, delimiter, prefix.length, boundary.length);
    this.search = new DelimiterSearch(delimiter, b.pairTable);
    this.lineBreakBytes = prefix.length - 2;
    this.dashStart = 1 + lineBreakBytes;
    this.crDelimiter = new byte[delimiter.length + 1];
    crDelimiter[0] = '\r';
    System.arraycopy(delimiter, 0, crDelimiter, 1, delimiter.length);
    // The first delimiter may open the body without a line break before it: act as if the
    // line break had been seen. Should the match fail, those phantom bytes come out as preamble;
    // the preamble count starts below zero to cancel them.
    this.matched = lenient ? 1 : 2;
    this.preambleBytes = -matched;
  }

  /** Returns a builder for the multipart body whose boundary parameter is {@code boundary}. */
  public static Builder builder(String boundary) {
    return new Builder(boundary);
  }

  /**
   * Consumes input from {@code in[start, end)} and returns the next event.
   *
   * @throws MimeException if the input is malformed or over a limit
   */
  public Event next(byte[] in, int start, int end) throws MimeException {
    return next(in, start, end, Integer.MAX_VALUE);
  }

  /**
   * Like {@link #next(byte[], int, int)}, but a {@link Event#BODY} slice is at most
   * {@code maxBodyBytes} long (for a reader filling a small buffer).
   */
  public Event next(byte[] in, int start, int end, int maxBodyBytes) throws MimeException {
    if (state == State.FAILED) {
      throw failure;
    }
    java.util.Objects.checkFromToIndex(start, end, in.length);
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("maxBodyBytes < 1: " + maxBodyBytes);
    }
    pos = start;
    callStart = start;
    long room = limits.maxMessageBytes() - offset;
    limitEnd = end - start > room ? start + (int) room : end;
    try {
      Event e = run(in, maxBodyBytes);
      if (e == Event.NEED_INPUT && limitEnd < end) {
        throw MimeException.limitExceeded("MimeLimits.maxMessageBytes",
            limits.maxMessageBytes(), offset + (end - start), limits.maxMessageBytes(),
            context());
      }
      return e;
    } catch (MimeException e) {
      state = State.FAILED;
      failure = e;
      throw e;
    } finally {
      consumed = pos - start;
      offset += consumed;
    }
  }

  /**
   * Tells the parser that the input has ended.
   *
   * @return {@link Event#END} if the closing delimiter was read
   * @throws MimeException if the message is incomplete (no closing delimiter)
   */
  public Event endOfInput() throws MimeException {
    if (state == State.FAILED) {
      throw failure;
    }
    if (state == State.EPILOGUE) {
      return Event.END;
    }
    String what = state == State.PREAMBLE
        ? "no delimiter line \"--" + boundaryText() + "\" found"
        : "truncated message: missing closing delimiter \"--" + boundaryText() + "--\"";
    failure = new MimeException(what, offset, context());
    state = State.FAILED;
    throw failure;
  }

  /** Returns the number of input bytes the last {@code next} call consumed. */
  public int consumed() {
    return consumed;
  }

  /** Returns the absolute offset of the next byte to be passed in. */
  public long byteOffset() {
    return offset;
  }

  /** Returns the headers of the current part (valid from {@link Event#PART_START} on). */
  public MimeHeaders headers() {
    return headers;
  }

  /** Returns the 0-based index of the current part, or -1 before the first. */
  public int partIndex() {
    return partIndex;
  }

  /** Returns the array holding the last {@link Event#BODY} slice. */
  public byte[] bodyArray() {
    return bodyArray;
  }

  public int bodyOffset() {
    return bodyOffset;
  }

  public int bodyLength() {
    return bodyLength;
  }

  /**
   * Returns true if the parser holds state about input it has consumed or been shown (a carried
   * partial delimiter, body bytes still to emit); the next body bytes then need not start at the
   * front of the next input.
   */
  public boolean hasCarry() {
    return matched > 0 || pendingCr || pendingFrom < pendingTo || bodyAhead > 0
        || delimiterAhead >= 0 || dashMatched > 0;
  }

  /**
   * Hands back the body bytes this parser carries (a partial delimiter match held at the end of
   * the last input, and any of it already known to be body), so that the caller can pass them
   * again in front of new input, in its own buffer. Returns how many bytes were written to
   * {@code dest} at {@code destOffset}; the parser then carries nothing. Only between calls in a
   * part's body, and only when {@link #hasCarry()} is the reason a direct read was refused.
   *
   * @throws IllegalStateException if not in a body, or {@code dest} has too little room
   */
  public int takeCarry(byte[] dest, int destOffset) {
    if (state == State.BODY_START) {
      // the dash-boundary bytes seen so far: given back, matched again when passed again
      int n = dashMatched;
      System.arraycopy(crDelimiter, dashStart, dest, destOffset, n);
      offset -= n;
      dashMatched = 0;
      return n;
    }
    if (state != State.BODY || bodyAhead > 0 || delimiterAhead >= 0) {
      throw new IllegalStateException("no carry to take in state " + state);
    }
    int n = 0;
    if (pendingFrom < pendingTo) {
      n = pendingTo - pendingFrom;
      System.arraycopy(crDelimiter, pendingFrom, dest, destOffset, n);
      pendingFrom = pendingTo = 0;
    }
    int from = pendingCr ? 0 : 1;
    int carried = matched + (pendingCr ? 1 : 0);
    System.arraycopy(crDelimiter, from, dest, destOffset + n, carried);
    offset -= n + carried; // those bytes will be passed, and counted, again
    matched = 0;
    pendingCr = false;
    return n + carried;
  }

  /** Returns true once the closing delimiter has been read. */
  public boolean isEnded() {
    return state == State.EPILOGUE;
  }

  /** Returns true if the line-end rule is lenient (bare LF accepted). */
  public boolean isLenient() {
    return lenient;
  }

  private Event run(byte[] in, int maxBody) throws MimeException {
    while (true) {
      Event e = switch (state) {
        case PREAMBLE -> preamble(in);
        case AFTER_BOUNDARY -> afterBoundary(in);
        case CLOSE_DASH -> closeDash(in);
        case PADDING -> padding(in);
        case LINE_CR -> lineCr(in);
        case HEADERS -> headerLines(in);
        case BODY_START -> bodyStart(in);
        case BODY -> body(in, maxBody);
        case EPILOGUE -> epilogue();
        case FAILED -> throw failure;
      };
      if (e != null) {
        return e;
      }
    }
  }

  // ---- preamble and body: the delimiter search ------------------------------------------------

  private Event preamble(byte[] in) throws MimeException {
    Event e = scan(in, Integer.MAX_VALUE);
    if (e == Event.BODY) {
      preambleBytes += bodyLength;
      if (preambleBytes > limits.maxPreambleBytes()) {
        throw MimeException.limitExceeded("MimeLimits.maxPreambleBytes",
            limits.maxPreambleBytes(), preambleBytes, offsetOf(pos), "preamble");
      }
      return null; // preamble bytes are discarded
    }
    return e == Event.PART_END ? null : e; // the first delimiter ends the preamble silently
  }

  private Event body(byte[] in, int maxBody) throws MimeException {
    Event e = scan(in, maxBody);
    if (e == Event.BODY) {
      partBytes += bodyLength;
      if (partBytes > limits.maxPartBytes()) {
        throw MimeException.limitExceeded("MimeLimits.maxPartBytes", limits.maxPartBytes(),
            partBytes, offsetOf(pos) - (partBytes - limits.maxPartBytes()), context());
      }
    }
    return e;
  }

  /**
   * The first bytes after a header section: a dash-boundary there is the next delimiter, whose
   * line break was the header section's last one, and the body is empty. Anything else is body.
   */
  private Event bodyStart(byte[] in) {
    if (dashMatched < dashBoundaryLength()) { // else the header section ended at this delimiter
      if (!matchDashBoundary(in)) {
        // body after all; the carried bytes (dashes and boundary, no CR or LF) hold no delimiter
        pendingFrom = dashStart;
        pendingTo = dashStart + dashMatched;
        dashMatched = 0;
        state = State.BODY;
        return null;
      }
      if (dashMatched < dashBoundaryLength()) {
        return Event.NEED_INPUT;
      }
    }
    dashMatched = 0;
    state = State.AFTER_BOUNDARY;
    return Event.PART_END;
  }

  /**
   * Goes on matching the dash-boundary at a line's start, {@link #dashMatched} bytes of it seen
   * so far: consumes what matches and returns true, or consumes nothing and returns false on a
   * mismatch (the carried count then tells how many of its bytes were seen).
   */
  private boolean matchDashBoundary(byte[] in) {
    int m = search.continueMatch(lineBreakBytes + dashMatched, in, pos, limitEnd);
    if (m < 0) {
      return false;
    }
    pos += m - lineBreakBytes - dashMatched;
    dashMatched = m - lineBreakBytes;
    return true;
  }

  private int dashBoundaryLength() {
    return search.length() - lineBreakBytes;
  }

  /**
   * Finds body bytes or the delimiter. Returns BODY (a slice), PART_END (delimiter consumed,
   * state moved on), or NEED_INPUT (all input consumed, possibly into the carried match).
   */
  private Event scan(byte[] in, int maxBody) {
    if (pendingFrom < pendingTo) {
      return emitPending(maxBody);
    }
    if (matched > 0 || pendingCr) {
      Event e = resolveCarry(in);
      if (e != null) {
        return e;
      }
      if (pendingFrom < pendingTo) {
        return emitPending(maxBody);
      }
    }
    if (pos == limitEnd) {
      return Event.NEED_INPUT;
    }
    if (bodyAhead > 0 && bodyAhead <= limitEnd - pos) {
      int n = Math.min(bodyAhead, maxBody);
      slice(in, pos, n);
      pos += n;
      bodyAhead -= n;
      return Event.BODY;
    }
    bodyAhead = 0;
    int found = delimiterAhead >= 0 && delimiterAhead + search.length() <= limitEnd - pos
        ? pos + delimiterAhead : search.indexIn(in, pos, limitEnd);
    if (found >= 0) {
      return bodyBeforeDelimiter(in, found, maxBody);
    }
    return bodyWithoutDelimiter(in, maxBody);
  }

  private Event bodyBeforeDelimiter(byte[] in, int found, int maxBody) {
    int bodyEnd = lenient && found > pos && in[found - 1] == '\r' ? found - 1 : found;
    if (bodyEnd > pos) {
      int n = Math.min(bodyEnd - pos, maxBody);
      slice(in, pos, n);
      pos += n;
      delimiterAhead = found - pos;
      return Event.BODY;
    }
    delimiterAhead = -1;
    pos = found + search.length();
    state = State.AFTER_BOUNDARY;
    return Event.PART_END;
  }

  private Event bodyWithoutDelimiter(byte[] in, int maxBody) {
    int tail = search.partialMatchStart(in, pos, limitEnd);
    boolean holdCr = false;
    if (lenient && tail > pos && in[tail - 1] == '\r') {
      tail--; // a CR right before a possible LF "--": hold it with the match
      holdCr = true;
    }
    if (tail - pos > maxBody) {
      slice(in, pos, maxBody);
      pos += maxBody;
      bodyAhead = tail - pos;
      return Event.BODY;
    }
    int start = pos;
    pendingCr = holdCr;
    matched = limitEnd - tail - (holdCr ? 1 : 0);
    pos = limitEnd;
    if (tail > start) {
      slice(in, start, tail - start);
      return Event.BODY;
    }
    return Event.NEED_INPUT;
  }

  /** Continues a match carried from the previous chunk; null when the carry became body. */
  private Event resolveCarry(byte[] in) {
    if (pos == limitEnd) {
      return Event.NEED_INPUT;
    }
    int m = search.continueMatch(matched, in, pos, limitEnd);
    if (m == search.length()) {
      pos += m - matched;
      matched = 0;
      pendingCr = false; // it belonged to the line break before the delimiter
      state = State.AFTER_BOUNDARY;
      return Event.PART_END;
    }
    if (m > 0) {
      pos = limitEnd;
      matched = m;
      return Event.NEED_INPUT;
    }
    // Mismatch: the carried bytes were body after all. No delimiter can start inside them,
    // because the delimiter's first byte (CR or LF) occurs nowhere else in it.
    pendingFrom = pendingCr ? 0 : 1;
    pendingTo = 1 + matched;
    matched = 0;
    pendingCr = false;
    return null;
  }

  private Event emitPending(int maxBody) {
    int n = Math.min(pendingTo - pendingFrom, maxBody);
    slice(crDelimiter, pendingFrom, n);
    pendingFrom += n;
    return Event.BODY;
  }

  private void slice(byte[] array, int from, int length) {
    bodyArray = array;
    bodyOffset = from;
    bodyLength = length;
  }

  // ---- the delimiter line ----------------------------------------------------------------------

  private Event afterBoundary(byte[] in) throws MimeException {
    if (pos == limitEnd) {
      return Event.NEED_INPUT;
    }
    byte c = in[pos];
    if (c == '-') {
      pos++;
      state = State.CLOSE_DASH;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      headerLen = 0; // padding is bounded by maxHeaderBytes too
      state = State.PADDING;
    } else {
      throw delimiterLineError(c, "CRLF, transport padding or \"--\"");
    }
    return null;
  }

  private Event closeDash(byte[] in) throws MimeException {
    if (pos == limitEnd) {
      return Event.NEED_INPUT;
    }
    if (in[pos] != '-') {
      throw delimiterLineError(in[pos], "'-' of the closing \"--\"");
    }
    pos++;
    state = State.EPILOGUE;
    return Event.END;
  }

  private Event padding(byte[] in) throws MimeException {
    while (pos < limitEnd) {
      byte c = in[pos];
      if (c == ' ' || c == '\t') {
        pos++;
        if (++headerLen > limits.maxHeaderBytes()) {
          throw headerBytesExceeded(headerLen);
        }
      } else if (c == '\r') {
        pos++;
        state = State.LINE_CR;
        return null;
      } else if (c == '\n' && lenient) {
        pos++;
        return startPart();
      } else {
        throw delimiterLineError(c, lenient ? "CRLF or LF" : "CRLF");
      }
    }
    return Event.NEED_INPUT;
  }

  private Event lineCr(byte[] in) throws MimeException {
    if (pos == limitEnd) {
      return Event.NEED_INPUT;
    }
    if (in[pos] != '\n') {
      throw delimiterLineError(in[pos], "LF after CR");
    }
    pos++;
    return startPart();
  }

  private Event startPart() throws MimeException {
    if (partIndex + 1 >= limits.maxParts()) {
      throw MimeException.limitExceeded("MimeLimits.maxParts", limits.maxParts(),
          partIndex + 2L, offsetOf(pos), "part " + (partIndex + 1));
    }
    partIndex++;
    headerLen = 0;
    lineStart = 0;
    atLineStart = true;
    fieldCount = 0;
    headerStartOffset = offsetOf(pos);
    state = State.HEADERS;
    return null;
  }

  private MimeException delimiterLineError(byte c, String expected) {
    return new MimeException("unexpected byte " + Bytes.describe(c) + " after boundary (expected: "
        + expected + ")", offsetOf(pos), partIndex < 0 ? "first delimiter"
        : "delimiter after part " + partIndex);
  }

  // ---- headers ---------------------------------------------------------------------------------

  private Event headerLines(byte[] in) throws MimeException {
    while (pos < limitEnd) {
      if (atLineStart && (dashMatched > 0 || in[pos] == '-')) {
        Event e = delimiterAtLineStart(in);
        if (e != null) {
          return e;
        }
      }
      atLineStart = false;
      int lf = Bytes.indexOf(in, (byte) '\n', pos, limitEnd);
      int stop = lf < 0 ? limitEnd : lf + 1;
      appendHeaderBytes(in, pos, stop);
      pos = stop;
      if (lf < 0) {
        return Event.NEED_INPUT;
      }
      int lineLength = headerLen - lineStart;
      boolean crlf = lineLength >= 2 && headerBuf[headerLen - 2] == '\r';
      if (!crlf && !lenient) {
        throw new MimeException("bare LF in header section (expected: CRLF; lenient line ends"
            + " accept it)", offsetOf(pos - 1), context());
      }
      byte first = headerBuf[lineStart];
      if (first != ' ' && first != '\t' && lineLength > (crlf ? 2 : 1)
          && ++fieldCount > limits.maxHeaderCount()) {
        throw MimeException.limitExceeded("MimeLimits.maxHeaderCount", limits.maxHeaderCount(),
            fieldCount, headerStartOffset + lineStart, context()); // before buffering the rest
      }
      if (lineLength == (crlf ? 2 : 1)) {
        return endHeaders();
      }
      lineStart = headerLen;
      atLineStart = true;
    }
    return Event.NEED_INPUT;
  }

  /**
   * A header line that starts with {@code -}: if it is a dash-boundary, the header section ends
   * here without its empty line, and the part has no body. Returns PART_START, NEED_INPUT (all
   * input went into the carried match), or null: not a delimiter, the line goes on as a header.
   */
  private Event delimiterAtLineStart(byte[] in) throws MimeException {
    if (!matchDashBoundary(in)) {
      appendHeaderBytes(crDelimiter, dashStart, dashStart + dashMatched); // header bytes after all
      dashMatched = 0;
      atLineStart = false;
      return null;
    }
    if (dashMatched < dashBoundaryLength()) {
      return Event.NEED_INPUT;
    }
    return endHeaders(); // BODY_START sees the whole dash-boundary matched: the body is empty
  }

  private Event endHeaders() throws MimeException {
    headers = MimeHeaders.parse(headerBuf, lineStart, limits, lenientHeaders, headerStartOffset,
        context());
    state = State.BODY_START;
    partBytes = 0;
    return Event.PART_START;
  }

  private void appendHeaderBytes(byte[] in, int from, int to) throws MimeException {
    int n = to - from;
    if (headerLen + n > limits.maxHeaderBytes()) {
      throw headerBytesExceeded(headerLen + n);
    }
    if (headerLen + n > headerBuf.length) {
      int grown = Math.min(Math.max(headerBuf.length * 2, headerLen + n),
          limits.maxHeaderBytes());
      headerBuf = java.util.Arrays.copyOf(headerBuf, grown);
    }
    System.arraycopy(in, from, headerBuf, headerLen, n);
    headerLen += n;
  }

  private MimeException headerBytesExceeded(long actual) {
    return MimeException.limitExceeded("MimeLimits.maxHeaderBytes", limits.maxHeaderBytes(),
        actual, headerStartOffset + limits.maxHeaderBytes(), context());
  }

  // ---- epilogue --------------------------------------------------------------------------------

  private Event epilogue() throws MimeException {
    epilogueBytes += limitEnd - pos;
    if (epilogueBytes > limits.maxEpilogueBytes()) {
      throw MimeException.limitExceeded("MimeLimits.maxEpilogueBytes",
          limits.maxEpilogueBytes(), epilogueBytes, offsetOf(limitEnd), "epilogue");
    }
    pos = limitEnd;
    return Event.NEED_INPUT;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** Returns the absolute offset of {@code position} in the current call's input. */
  private long offsetOf(int position) {
    return offset + (position - callStart);
  }

  private String context() {
    return switch (state) {
      case PREAMBLE -> "preamble";
      case HEADERS -> "part " + partIndex + " > headers";
      case BODY, BODY_START -> "part " + partIndex + " > body";
      case EPILOGUE -> "epilogue";
      default -> partIndex < 0 ? "first delimiter" : "delimiter after part " + partIndex;
    };
  }

  private String boundaryText() {
    int prefix = lenient ? 3 : 4;
    byte[] b = new byte[search.length() - prefix];
    for (int i = 0; i < b.length; i++) {
      b[i] = search.byteAt(prefix + i);
    }
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  private static byte[] checkBoundary(String boundary, MimeLimits limits, boolean lenient)
      throws MimeException {
    if (boundary == null || boundary.isEmpty()) {
      throw new MimeException("missing boundary parameter", -1, "Content-Type");
    }
    if (boundary.length() > limits.maxBoundaryLength()) {
      throw MimeException.limitExceeded("MimeLimits.maxBoundaryLength",
          limits.maxBoundaryLength(), boundary.length(), -1, "Content-Type boundary");
    }
    int bad = Boundaries.firstInvalid(boundary, lenient);
    if (bad >= 0) {
      throw new MimeException("invalid character " + Bytes.describe((byte) boundary.charAt(bad))
          + " in boundary (RFC 2046 bchars)", -1, "Content-Type boundary");
    }
    return boundary.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Configures a {@link MultipartParser}. */
  public static final class Builder {
    private final String boundary;
    private MimeLimits limits = MimeLimits.DEFAULTS;
    private boolean lenientLineEnds;
    private boolean lenientHeaders;
    private byte[] pairTable;

    private Builder(String boundary) {
      this.boundary = boundary;
    }

    public Builder limits(MimeLimits limits) {
      this.limits = java.util.Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Accepts bare LF line ends as well as CRLF (off by default). */
    public Builder lenientLineEnds(boolean lenient) {
      this.lenientLineEnds = lenient;
      return this;
    }

    /**
     * Reads past a malformed header field (a name with bytes outside printable ASCII, a line
     * without ':') or Content-Type parameter (a value that is neither a token nor a quoted
     * string, such as an unquoted RFC 2047 encoded word, is kept as written) instead of failing
     * the message, and reports each in the part's {@link MimeHeaders#warnings()}; at most
     * {@code MimeLimits.maxHeaderWarnings} in one header section. Off by default.
     */
    public Builder lenientHeaders(boolean lenient) {
      this.lenientHeaders = lenient;
      return this;
    }

    /**
     * Returns a new parser.
     *
     * @throws MimeException if the boundary is empty, too long or has invalid characters
     */
    public MultipartParser build() throws MimeException {
      return new MultipartParser(this);
    }

    /** The pair table the parser's delimiter search fills and uses: one lent by a reader. */
    Builder pairTable(byte[] table) {
      this.pairTable = table;
      return this;
    }
  }
}
