package dev.ferry.asn1;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Cuts a stream into top-level elements, each returned as one byte string. Only headers are
 * parsed here (the {@link BerReader} validates the content); lengths are checked against the
 * limits before the buffer is sized, and the buffer grows as bytes arrive, in steps of at most
 * {@value #STEP_BYTES}, so a lying length costs at most one step.
 */
final class StreamFramer implements BerHeader.Octets {
  static final int STEP_BYTES = 64 * 1024;

  private final InputStream in;
  private final BerRules rules;
  private final BerLimits limits;
  private final BerHeader header = new BerHeader();
  private ByteStringBuilder buf;
  private long streamOffset; // offset of the next byte of the stream
  private long elementOffset;

  StreamFramer(InputStream in, BerRules rules, BerLimits limits) {
    this.in = in;
    this.rules = rules;
    this.limits = limits;
  }

  /** Returns the next element, or null if the stream ends cleanly before one starts. */
  ByteString next() throws IOException {
    int b0 = in.read();
    if (b0 < 0) {
      return null;
    }
    elementOffset = streamOffset;
    buf = new ByteStringBuilder(64);
    buf.append((byte) b0);
    streamOffset++;
    copyElement(b0, 0);
    ByteString element = buf.toByteString();
    buf = null;
    return element;
  }

  /** Returns the stream offset of the element {@link #next()} returned last. */
  long elementOffset() {
    return elementOffset;
  }

  @Override
  public int octet() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new BerException("truncated input (expected: more header octets)", streamOffset,
          null);
    }
    buf.append((byte) b);
    streamOffset++;
    return b;
  }

  @Override
  public long offset() {
    return streamOffset;
  }

  /**
   * Copies the element whose first octet {@code b0} was already copied; returns true if it was
   * the end-of-contents octets that end the indefinite-length contents at {@code depth}.
   */
  private boolean copyElement(int b0, int depth) throws IOException {
    Pushback first = new Pushback(b0);
    header.parse(first, rules);
    if (depth > 0 && header.isEndOfContents()) {
      return true; // depth > 0 only inside indefinite-length contents: these end them
    }
    header.checkNotEndOfContents(streamOffset - header.headerBytes);
    long length = header.length;
    if (length == BerHeader.INDEFINITE) {
      copyIndefinite(depth);
      return false;
    }
    if (depth == 0) {
      limits.checkPdu(header.headerBytes + length, header.lengthOffset);
    }
    if (!header.isConstructed()) {
      limits.checkElement(length, header.lengthOffset);
    }
    copyValue(length);
    return false;
  }

  private void copyIndefinite(int depth) throws IOException {
    limits.checkDepth(depth + 1, header.lengthOffset);
    while (true) {
      int b = octet();
      if (copyElement(b, depth + 1)) {
        return;
      }
      limits.checkPdu(buf.size(), streamOffset);
    }
  }

  private void copyValue(long length) throws IOException {
    long left = length;
    while (left > 0) {
      int step = (int) Math.min(left, STEP_BYTES);
      try {
        buf.appendFrom(in, step);
      } catch (EOFException e) {
        long at = elementOffset + buf.size();
        throw new BerException("truncated input (expected: " + length
            + " bytes of content, found: " + (length - left + (at - streamOffset)) + ")", at,
            null, e);
      }
      streamOffset += step;
      left -= step;
    }
  }

  /** Feeds the already-read first octet, then the stream. */
  private final class Pushback implements BerHeader.Octets {
    private int first;

    Pushback(int first) {
      this.first = first;
    }

    @Override
    public int octet() throws IOException {
      if (first >= 0) {
        int b = first;
        first = -1;
        return b;
      }
      return StreamFramer.this.octet();
    }

    @Override
    public long offset() {
      return first >= 0 ? streamOffset - 1 : streamOffset;
    }
  }
}
