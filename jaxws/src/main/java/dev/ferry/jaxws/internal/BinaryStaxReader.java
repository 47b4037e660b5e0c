package dev.ferry.jaxws.internal;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;
import org.jvnet.staxex.Base64Data;
import org.jvnet.staxex.NamespaceContextEx;
import org.jvnet.staxex.XMLStreamReaderEx;

/**
 * The reader JAXB unmarshals from: it hands JAXB a long text that is canonical base64 already
 * decoded, so that inline binaries (MTOM off) cost the JDK's base64 decoder, not JAXB's, which
 * decodes a character at a time from a String it first copies whole.
 *
 * <p>JAXB reads a reader of stax-ex's {@link XMLStreamReaderEx} through its StAXExConnector:
 * text comes as {@link #getPCDATA()}, and a {@link Base64Data} there is given to a base64Binary
 * property (a {@code byte[]}, a {@code DataHandler}, an image) as its bytes. Any other property
 * reads it through {@code toString()}, which encodes the bytes again: for text in the canonical
 * form (the base64 alphabet, whole quanta, the padding and zero pad bits the encoder writes, no
 * white space) that is the text itself, character for character. Text not in that form, and
 * text shorter than {@link #MIN_CHARS}, reads as text.
 *
 * <p>JAXB takes text it expects whole, and a decoded binary must be too: so consecutive text
 * events (with the comments and processing instructions between them, which JAXB drops) are read
 * ahead into one text event; the element event after them is the next. Nothing else changes.
 */
final class BinaryStaxReader extends StreamReaderDelegate implements XMLStreamReaderEx {
  /** Texts shorter than this are left to JAXB: its decoding of them costs little. */
  static final int MIN_CHARS = 1024;
  private static final int[] VALUES = new int[128];

  static {
    java.util.Arrays.fill(VALUES, -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < alphabet.length(); i++) {
      VALUES[alphabet.charAt(i)] = i;
    }
  }

  /** The text read ahead: whole while it fits in one piece, else in pieces, joined once. */
  private char[] text = new char[256];
  private int length;
  private final java.util.List<char[]> pieces = new java.util.ArrayList<>();
  private boolean onText; // on one text event made of the parent's consecutive ones

  BinaryStaxReader(XMLStreamReader parent) {
    super(parent);
  }

  /** {@code r} as JAXB should read it. */
  static XMLStreamReader of(XMLStreamReader r) {
    return r instanceof XMLStreamReaderEx ? r : new BinaryStaxReader(r);
  }

  @Override
  public int next() throws XMLStreamException {
    if (onText) {
      onText = false; // the parent stands on the event after the text already
      return getParent().getEventType();
    }
    int e = getParent().next();
    if (!isText(e)) {
      return e;
    }
    length = 0;
    pieces.clear();
    for (; isText(e) || e == COMMENT || e == PROCESSING_INSTRUCTION; e = getParent().next()) {
      if (isText(e)) {
        append(getParent());
      }
    }
    join();
    onText = true;
    return CHARACTERS;
  }

  private static boolean isText(int e) {
    return e == CHARACTERS || e == CDATA || e == SPACE;
  }

  /**
   * Keeps the parent's text: into {@link #text} while it fits, else as a piece of its own (a
   * long text arrives in many events; growing one array for it would copy it about twice).
   */
  private void append(XMLStreamReader r) {
    int n = r.getTextLength();
    if (pieces.isEmpty() && length + n <= text.length) {
      System.arraycopy(r.getTextCharacters(), r.getTextStart(), text, length, n);
    } else {
      if (pieces.isEmpty()) {
        pieces.add(java.util.Arrays.copyOf(text, length));
      }
      pieces.add(java.util.Arrays.copyOfRange(r.getTextCharacters(), r.getTextStart(),
          r.getTextStart() + n));
    }
    length += n;
  }

  /** Joins the pieces, if any, into {@link #text}: one copy of a long text. */
  private void join() {
    if (pieces.isEmpty()) {
      return;
    }
    char[] whole = length <= text.length ? text : new char[length];
    int at = 0;
    for (char[] p : pieces) {
      System.arraycopy(p, 0, whole, at, p.length);
      at += p.length;
    }
    text = whole;
    pieces.clear();
  }

  @Override
  public CharSequence getPCDATA() throws XMLStreamException {
    if (!onText) {
      return getParent().getText();
    }
    if (length >= MIN_CHARS && isCanonicalBase64()) {
      try {
        byte[] bytes = Base64.getDecoder().decode(new String(text, 0, length)
            .getBytes(StandardCharsets.ISO_8859_1));
        Base64Data binary = new Base64Data();
        binary.set(bytes, bytes.length, null);
        return binary;
      } catch (IllegalArgumentException e) {
        // a character outside the alphabet: text it is
      }
    }
    return getText();
  }

  /**
   * Whole quanta, and at the end the padding and the zero pad bits the encoder writes (so that
   * encoding the bytes again gives this text); the decoder checks the alphabet.
   */
  private boolean isCanonicalBase64() {
    if (length % 4 != 0) {
      return false;
    }
    if (text[length - 1] != '=') {
      return true;
    }
    if (text[length - 2] == '=') {
      return (value(text[length - 3]) & 0xF) == 0;
    }
    return (value(text[length - 2]) & 0x3) == 0;
  }

  private static int value(char c) {
    return c < 128 ? VALUES[c] : -1;
  }

  @Override
  public int getEventType() {
    return onText ? CHARACTERS : getParent().getEventType();
  }

  @Override
  public boolean hasNext() throws XMLStreamException {
    return onText || getParent().hasNext();
  }

  @Override
  public String getText() {
    return onText ? new String(text, 0, length) : getParent().getText();
  }

  @Override
  public char[] getTextCharacters() {
    return onText ? text : getParent().getTextCharacters();
  }

  @Override
  public int getTextCharacters(int sourceStart, char[] target, int targetStart, int n)
      throws XMLStreamException {
    if (!onText) {
      return getParent().getTextCharacters(sourceStart, target, targetStart, n);
    }
    int copied = Math.max(0, Math.min(n, length - sourceStart));
    System.arraycopy(text, sourceStart, target, targetStart, copied);
    return copied;
  }

  @Override
  public int getTextStart() {
    return onText ? 0 : getParent().getTextStart();
  }

  @Override
  public int getTextLength() {
    return onText ? length : getParent().getTextLength();
  }

  @Override
  public boolean hasText() {
    return onText || getParent().hasText();
  }

  @Override
  public boolean isCharacters() {
    return onText || getParent().isCharacters();
  }

  @Override
  public boolean isStartElement() {
    return !onText && getParent().isStartElement();
  }

  @Override
  public boolean isEndElement() {
    return !onText && getParent().isEndElement();
  }

  @Override
  public boolean isWhiteSpace() {
    if (!onText) {
      return getParent().isWhiteSpace();
    }
    for (int i = 0; i < length; i++) {
      char c = text[i];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        return false;
      }
    }
    return true;
  }

  @Override
  public int nextTag() throws XMLStreamException {
    int e = next();
    while (e == CHARACTERS && isWhiteSpace() || e == COMMENT || e == PROCESSING_INSTRUCTION) {
      e = next();
    }
    if (e != START_ELEMENT && e != END_ELEMENT) {
      throw new XMLStreamException("expected an element, found event " + e, getLocation());
    }
    return e;
  }

  @Override
  public String getElementText() throws XMLStreamException {
    if (getEventType() != START_ELEMENT) {
      throw new XMLStreamException("not at an element's start", getLocation());
    }
    StringBuilder b = new StringBuilder();
    for (int e = next(); e != END_ELEMENT; e = next()) {
      if (e == CHARACTERS) {
        b.append(text, 0, length);
      } else if (e != COMMENT && e != PROCESSING_INSTRUCTION) {
        throw new XMLStreamException("an element inside text-only content", getLocation());
      }
    }
    return b.toString();
  }

  @Override
  public String getElementTextTrim() throws XMLStreamException {
    return getElementText().trim();
  }

  @Override
  public NamespaceContextEx getNamespaceContext() {
    return StaxExNamespaces.of(getParent().getNamespaceContext());
  }
}
