package dev.ferry.jaxws.internal;

import dev.ferry.xop.XopWriter;
import jakarta.activation.DataHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import javax.xml.namespace.NamespaceContext;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jvnet.staxex.Base64Data;
import org.jvnet.staxex.NamespaceContextEx;
import org.jvnet.staxex.XMLStreamWriterEx;

/**
 * The writer JAXB marshals into when a message goes without MTOM: JAXB hands a writer of
 * stax-ex's {@link XMLStreamWriterEx} its binaries as bytes ({@link #writeBinary}), which the
 * {@link XopWriter} encodes to base64 with the JDK's encoder straight from them, where JAXB would
 * encode them a character at a time into a String and have the writer escape and encode that.
 * Everything else is the {@link XopWriter}'s.
 */
final class BinaryStaxWriter implements XMLStreamWriterEx {
  private final XopWriter out;

  private BinaryStaxWriter(XopWriter out) {
    this.out = out;
  }

  /**
   * {@code w} as JAXB should write to it: a plain {@link XopWriter} (MTOM off) gets binaries as
   * bytes; with MTOM on, JAXB's attachment marshaller decides what is attached, and what it
   * leaves inline goes as JAXB writes it.
   */
  static XMLStreamWriter of(XMLStreamWriter w) {
    return w instanceof XopWriter x && !x.policy().isMtom() ? new BinaryStaxWriter(x) : w;
  }

  @Override
  public void writeBinary(byte[] data, int start, int len, String contentType)
      throws XMLStreamException {
    out.writeBinary(data, start, len, contentType);
  }

  @Override
  public void writeBinary(DataHandler data) throws XMLStreamException {
    try (InputStream in = data.getInputStream()) {
      out.writeBinary(in, -1, data.getContentType());
    } catch (IOException e) {
      throw new XMLStreamException("cannot read the binary to write: " + e.getMessage(), e);
    }
  }

  @Override
  public OutputStream writeBinary(String contentType) {
    throw new UnsupportedOperationException("binaries are written whole here");
  }

  @Override
  public void writePCDATA(CharSequence data) throws XMLStreamException {
    if (data instanceof Base64Data b && b.hasData()) {
      writeBinary(b.get(), 0, b.getDataLen(), b.getMimeType());
    } else if (data instanceof Base64Data b) {
      writeBinary(b.getDataHandler());
    } else {
      out.writeCharacters(data.toString());
    }
  }

  @Override
  public NamespaceContextEx getNamespaceContext() {
    return StaxExNamespaces.of(out.getNamespaceContext());
  }

  @Override
  public void writeStartElement(String localName) throws XMLStreamException {
    out.writeStartElement(localName);
  }

  @Override
  public void writeStartElement(String namespaceUri, String localName)
      throws XMLStreamException {
    out.writeStartElement(namespaceUri, localName);
  }

  @Override
  public void writeStartElement(String prefix, String localName, String namespaceUri)
      throws XMLStreamException {
    out.writeStartElement(prefix, localName, namespaceUri);
  }

  @Override
  public void writeEmptyElement(String namespaceUri, String localName)
      throws XMLStreamException {
    out.writeEmptyElement(namespaceUri, localName);
  }

  @Override
  public void writeEmptyElement(String prefix, String localName, String namespaceUri)
      throws XMLStreamException {
    out.writeEmptyElement(prefix, localName, namespaceUri);
  }

  @Override
  public void writeEmptyElement(String localName) throws XMLStreamException {
    out.writeEmptyElement(localName);
  }

  @Override
  public void writeEndElement() throws XMLStreamException {
    out.writeEndElement();
  }

  @Override
  public void writeEndDocument() throws XMLStreamException {
    out.writeEndDocument();
  }

  @Override
  public void close() throws XMLStreamException {
    // the XopWriter is its owner's to close: JAXB closes nothing it was given
  }

  @Override
  public void flush() throws XMLStreamException {
    out.flush();
  }

  @Override
  public void writeAttribute(String localName, String value) throws XMLStreamException {
    out.writeAttribute(localName, value);
  }

  @Override
  public void writeAttribute(String prefix, String namespaceUri, String localName, String value)
      throws XMLStreamException {
    out.writeAttribute(prefix, namespaceUri, localName, value);
  }

  @Override
  public void writeAttribute(String namespaceUri, String localName, String value)
      throws XMLStreamException {
    out.writeAttribute(namespaceUri, localName, value);
  }

  @Override
  public void writeNamespace(String prefix, String namespaceUri) throws XMLStreamException {
    out.writeNamespace(prefix, namespaceUri);
  }

  @Override
  public void writeDefaultNamespace(String namespaceUri) throws XMLStreamException {
    out.writeDefaultNamespace(namespaceUri);
  }

  @Override
  public void writeComment(String data) throws XMLStreamException {
    out.writeComment(data);
  }

  @Override
  public void writeProcessingInstruction(String target) throws XMLStreamException {
    out.writeProcessingInstruction(target);
  }

  @Override
  public void writeProcessingInstruction(String target, String data)
      throws XMLStreamException {
    out.writeProcessingInstruction(target, data);
  }

  @Override
  public void writeCData(String data) throws XMLStreamException {
    out.writeCData(data);
  }

  @Override
  public void writeDTD(String dtd) throws XMLStreamException {
    out.writeDTD(dtd);
  }

  @Override
  public void writeEntityRef(String name) throws XMLStreamException {
    out.writeEntityRef(name);
  }

  @Override
  public void writeStartDocument() throws XMLStreamException {
    out.writeStartDocument();
  }

  @Override
  public void writeStartDocument(String version) throws XMLStreamException {
    out.writeStartDocument(version);
  }

  @Override
  public void writeStartDocument(String encoding, String version) throws XMLStreamException {
    out.writeStartDocument(encoding, version);
  }

  @Override
  public void writeCharacters(String text) throws XMLStreamException {
    out.writeCharacters(text);
  }

  @Override
  public void writeCharacters(char[] text, int start, int len) throws XMLStreamException {
    out.writeCharacters(text, start, len);
  }

  @Override
  public String getPrefix(String uri) throws XMLStreamException {
    return out.getPrefix(uri);
  }

  @Override
  public void setPrefix(String prefix, String uri) throws XMLStreamException {
    out.setPrefix(prefix, uri);
  }

  @Override
  public void setDefaultNamespace(String uri) throws XMLStreamException {
    out.setDefaultNamespace(uri);
  }

  @Override
  public void setNamespaceContext(NamespaceContext context) throws XMLStreamException {
    out.setNamespaceContext(context);
  }

  @Override
  public Object getProperty(String name) {
    return out.getProperty(name);
  }
}
