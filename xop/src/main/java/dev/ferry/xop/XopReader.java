package dev.ferry.xop;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.ContentIds;
import dev.ferry.xop.internal.XmlErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;

/**
 * A StAX reader over an XOP package's root part in which every {@code xop:Include} element reads
 * as one {@code CHARACTERS} event holding the base64 text it stands for (XOP 1.0 section 3.2),
 * so that any StAX consumer (JAXB, a hand-written binder) works unchanged.
 *
 * <p>Ferry-aware consumers skip base64 altogether: while {@link #isBinary()} is true,
 * {@link #binary()} is the {@link Attachment} with the raw bytes.
 *
 * <p>Rules: an {@code href} must be a {@code cid:} URL, percent-decoded and compared with the
 * bare Content-ID (RFC 2392); any other scheme is refused, never fetched. An {@code href} that
 * names no part is an error naming it. A DTD is refused. Outside a multipart package,
 * {@code xop:Include} is an ordinary element.
 */
public final class XopReader extends StreamReaderDelegate {
  /** The XOP namespace. */
  public static final String XOP_NS = "http://www.w3.org/2004/08/xop/include";

  private final XopPackage pkg;
  private Attachment binary;
  private String base64;

  XopReader(XMLStreamReader reader, XopPackage pkg) {
    super(reader);
    this.pkg = pkg;
  }

  @Override
  public int next() throws XMLStreamException {
    binary = null;
    base64 = null;
    int event;
    try {
      event = super.next();
    } catch (XMLStreamException e) {
      if (e.getLocation() != null) {
        throw e;
      }
      // Woodstox reports a hit limit without a location: give it where the reader stopped
      throw new XMLStreamException(e.getMessage(), getLocation(), e);
    }
    if (event == XMLStreamConstants.DTD) {
      throw new XMLStreamException("DTD not allowed (SOAP and XOP forbid it)", getLocation());
    }
    if (event == XMLStreamConstants.START_ELEMENT && pkg.isMultipart() && isInclude()) {
      binary = resolve();
      skipIncludeContent();
      return XMLStreamConstants.CHARACTERS;
    }
    return event;
  }

  @Override
  public int nextTag() throws XMLStreamException {
    int event = next();
    while ((event == CHARACTERS && isWhiteSpace()) || event == COMMENT
        || event == PROCESSING_INSTRUCTION || event == SPACE) {
      event = next();
    }
    if (event != START_ELEMENT && event != END_ELEMENT) {
      throw new XMLStreamException("expected a start or end tag", getLocation());
    }
    return event;
  }

  @Override
  public String getElementText() throws XMLStreamException {
    if (getEventType() != START_ELEMENT) {
      throw new XMLStreamException("getElementText() needs a START_ELEMENT", getLocation());
    }
    StringBuilder text = new StringBuilder();
    for (int event = next(); event != END_ELEMENT; event = next()) {
      if (event == CHARACTERS || event == CDATA || event == SPACE || event == ENTITY_REFERENCE) {
        text.append(getText());
      } else if (event == START_ELEMENT) {
        throw new XMLStreamException("element text holds an element", getLocation());
      } else if (event == END_DOCUMENT) {
        throw new XMLStreamException("document ended inside an element", getLocation());
      }
    }
    return text.toString();
  }

  /** Returns true while positioned on the text of a resolved {@code xop:Include}. */
  public boolean isBinary() {
    return binary != null;
  }

  /** Returns the attachment of the current {@code xop:Include}, or null. */
  public Attachment binary() {
    return binary;
  }

  /** Returns the package this reader reads. */
  public XopPackage xopPackage() {
    return pkg;
  }

  @Override
  public int getEventType() {
    return binary != null ? CHARACTERS : super.getEventType();
  }

  @Override
  public boolean isCharacters() {
    return binary != null || super.isCharacters();
  }

  @Override
  public boolean isStartElement() {
    return binary == null && super.isStartElement();
  }

  @Override
  public boolean isEndElement() {
    return binary == null && super.isEndElement();
  }

  @Override
  public boolean isWhiteSpace() {
    return binary != null ? false : super.isWhiteSpace();
  }

  @Override
  public boolean hasText() {
    return binary != null || super.hasText();
  }

  @Override
  public boolean hasName() {
    return binary == null && super.hasName();
  }

  @Override
  public String getText() {
    return binary != null ? base64() : super.getText();
  }

  @Override
  public char[] getTextCharacters() {
    return binary != null ? base64().toCharArray() : super.getTextCharacters();
  }

  @Override
  public int getTextStart() {
    return binary != null ? 0 : super.getTextStart();
  }

  @Override
  public int getTextLength() {
    return binary != null ? base64().length() : super.getTextLength();
  }

  @Override
  public int getTextCharacters(int sourceStart, char[] target, int targetStart, int length)
      throws XMLStreamException {
    if (binary == null) {
      return super.getTextCharacters(sourceStart, target, targetStart, length);
    }
    String text = base64();
    int n = Math.max(0, Math.min(length, text.length() - sourceStart));
    text.getChars(sourceStart, sourceStart + n, target, targetStart);
    return n;
  }

  private String base64() {
    if (base64 == null) {
      try {
        ByteString bytes = binary.bytes();
        base64 = bytes.base64();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return base64;
  }

  private boolean isInclude() {
    return "Include".equals(super.getLocalName()) && XOP_NS.equals(super.getNamespaceURI());
  }

  private Attachment resolve() throws XMLStreamException {
    String href = super.getAttributeValue(null, "href");
    String where = "root > xop:Include href=\"" + href + "\"";
    if (href == null) {
      throw new XMLStreamException(new XopException("xop:Include without href",
          offset(), "root > xop:Include"));
    }
    if (!ContentIds.isCidUrl(href)) {
      throw new XMLStreamException(new XopException("xop:Include href is not a cid: URL;"
          + " Ferry never fetches other URLs", offset(), where));
    }
    String contentId;
    try {
      contentId = ContentIds.fromCidUrl(href);
    } catch (IllegalArgumentException e) {
      throw new XMLStreamException(new XopException(e.getMessage(), offset(), where));
    }
    try {
      Attachment a = pkg.attachment(contentId);
      if (a == null) {
        throw new XMLStreamException(new XopException("xop:Include refers to Content-ID <"
            + contentId + ">, which no part of the package has", offset(), where));
      }
      return a;
    } catch (IOException e) {
      throw new XMLStreamException(e);
    }
  }

  private void skipIncludeContent() throws XMLStreamException {
    for (int depth = 1; depth > 0; ) {
      int e = super.next();
      if (e == START_ELEMENT) {
        depth++;
      } else if (e == END_ELEMENT) {
        depth--;
      }
    }
  }

  private long offset() {
    Location l = getLocation();
    return l == null ? -1 : l.getCharacterOffset();
  }

  /** Turns a StAX failure into the exception Ferry reports (see {@link XmlErrors}). */
  static XopException translate(XMLStreamException e, String context) {
    return XmlErrors.translate(e, context, null);
  }

}
