package dev.ferry.broker;

import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.ErrorListener;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Templates;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.sax.SAXSource;
import javax.xml.transform.stax.StAXSource;
import javax.xml.transform.stream.StreamResult;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;

/**
 * An XSLT 1.0 stylesheet a route applies to the request's payload, the Body's first element (as
 * Apache Synapse's XSLT mediator does by default): its output becomes the Body's content. The
 * stylesheet is compiled once, as the routes load, by the JDK's processor with secure processing
 * on; it is read with DTDs refused and may reach nothing outside itself (no external DTD,
 * stylesheet, {@code document()} or extension function). The payload is read by a StAX reader
 * over the envelope's bytes, {@code xop:Include} elements as they are (the attachments stream
 * on untouched, so a stylesheet that copies them keeps them); the output is written as bytes,
 * at most {@link #MAX_OUTPUT_BYTES}. Thread-safe.
 */
public final class RouteTransform {
  /** The most bytes a transformation may write. */
  public static final int MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

  private static final System.Logger LOG = System.getLogger("dev.ferry.broker");

  private final Templates templates;
  private final String name;

  private RouteTransform(Templates templates, String name) {
    this.templates = templates;
    this.name = name;
  }

  /**
   * Compiles the stylesheet in {@code file}.
   *
   * @throws IllegalArgumentException if it cannot be read, has a DOCTYPE, or is not a valid
   *     XSLT 1.0 stylesheet, with the processor's reason and line
   */
  public static RouteTransform compile(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return compile(in, file.getFileName().toString());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the stylesheet " + file + ": " + e);
    }
  }

  /** Compiles the stylesheet read from {@code in}, called {@code name} in messages. */
  public static RouteTransform compile(InputStream in, String name) {
    TransformerFactory f = factory();
    Reasons reasons = new Reasons();
    f.setErrorListener(reasons);
    try {
      return new RouteTransform(f.newTemplates(new SAXSource(secureReader(),
          new InputSource(in))), name);
    } catch (TransformerConfigurationException e) {
      throw new IllegalArgumentException("the stylesheet " + name + " does not compile: "
          + reasons.first(e));
    }
  }

  /** The JDK's processor, reaching nothing outside the stylesheet. */
  private static TransformerFactory factory() {
    TransformerFactory f = TransformerFactory.newDefaultInstance();
    try {
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    } catch (TransformerConfigurationException e) {
      throw new IllegalStateException("the JDK's XSLT processor lacks secure processing", e);
    }
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
    return f;
  }

  /** A SAX reader that refuses DOCTYPEs (so no entity of any kind) and loads nothing. */
  private static XMLReader secureReader() {
    try {
      SAXParserFactory spf = SAXParserFactory.newDefaultInstance();
      spf.setNamespaceAware(true);
      spf.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      spf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      spf.setFeature("http://xml.org/sax/features/external-general-entities", false);
      spf.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      return spf.newSAXParser().getXMLReader();
    } catch (ParserConfigurationException | SAXException e) {
      throw new IllegalStateException("the JDK's SAX parser lacks a secure setting", e);
    }
  }

  /** The stylesheet's name, as given when it was compiled. */
  public String name() {
    return name;
  }

  /**
   * Replaces {@code message}'s Body content with the stylesheet's output for its first element;
   * an empty Body stays empty.
   *
   * @throws FaultException a Sender fault if the Body is malformed, a Receiver fault naming the
   *     route if the stylesheet fails (its own message for {@code xsl:message terminate}) or
   *     writes more than {@link #MAX_OUTPUT_BYTES}
   */
  void apply(Message message, Route route) throws IOException {
    SoapVersion v = message.version();
    XMLStreamReader r = message.bodyXmlReader();
    try {
      if (r.nextTag() != XMLStreamConstants.START_ELEMENT) {
        return; // an empty Body: nothing to transform
      }
      ByteStringBuilder out = new ByteStringBuilder(message.body().size() + 256);
      Reasons reasons = new Reasons();
      try {
        Transformer t = templates.newTransformer();
        t.setOutputProperty(OutputKeys.METHOD, "xml"); // it goes inside the Body
        t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
        t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        t.setErrorListener(reasons);
        t.transform(new StAXSource(r), new StreamResult(new Capped(out.asOutputStream())));
      } catch (TransformerException e) {
        throw failed(v, route, e, reasons);
      } catch (StackOverflowError e) { // a stylesheet that recurses without end
        throw new FaultException(Fault.of(v, v.receiverFaultCode(), "the transformation of "
            + route.name() + " recursed too deep"));
      }
      message.replaceBody(out.toByteString());
    } catch (XMLStreamException e) {
      throw new FaultException(Fault.of(v, v.senderFaultCode(), "malformed Body: "
          + e.getMessage()));
    } finally {
      close(r);
    }
  }

  private FaultException failed(SoapVersion v, Route route, TransformerException e,
      Reasons reasons) {
    if (causedBy(e, Capped.TooLong.class)) {
      return new FaultException(Fault.of(v, v.receiverFaultCode(), "the transformation of "
          + route.name() + " wrote more than " + MAX_OUTPUT_BYTES + " bytes"
          + " (RouteTransform.MAX_OUTPUT_BYTES)"));
    }
    if (causedBy(e, XMLStreamException.class)) {
      return new FaultException(Fault.of(v, v.senderFaultCode(), "malformed Body: "
          + e.getMessage()));
    }
    String why = reasons.first(e);
    LOG.log(System.Logger.Level.INFO, "the stylesheet " + name + " on " + route.name()
        + " failed: " + e.getMessageAndLocation());
    return new FaultException(Fault.of(v, v.receiverFaultCode(), "the transformation of "
        + route.name() + " failed: " + why));
  }

  private static boolean causedBy(Throwable e, Class<? extends Exception> type) {
    for (Throwable t = e; t != null; t = t.getCause() != t ? t.getCause() : null) {
      if (type.isInstance(t) || t instanceof TransformerException x
          && type.isInstance(x.getException())) {
        return true;
      }
    }
    return false;
  }

  private static void close(XMLStreamReader r) {
    try {
      r.close();
    } catch (XMLStreamException e) {
      // nothing held open: the reader reads bytes in memory
    }
  }

  /**
   * The processor's first complaint, without locations (they name the broker's files); for a
   * stylesheet that stops itself ({@code xsl:message terminate="yes"}), its message.
   */
  private static final class Reasons implements ErrorListener {
    private String first;
    private String said;

    @Override
    public void warning(TransformerException e) {
      said = e.getMessage(); // xsl:message comes as a warning; nothing else of them counts
    }

    @Override
    public void error(TransformerException e) {
      keep(e);
    }

    @Override
    public void fatalError(TransformerException e) throws TransformerException {
      keep(e);
      throw e;
    }

    private void keep(TransformerException e) {
      if (first == null) {
        first = reason(e);
      }
    }

    String first(TransformerException otherwise) {
      return said != null ? said : first != null ? first : reason(otherwise);
    }

    /** The deepest message of {@code e}'s causes (the parser's, under the processor's). */
    private static String reason(TransformerException e) {
      String why = e.getMessage();
      for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
        if (t.getMessage() != null) {
          why = t.getMessage();
        }
      }
      return why + (e.getLocator() != null && e.getLocator().getLineNumber() > 0
          ? " (line " + e.getLocator().getLineNumber() + ")" : "");
    }
  }

  /** An output stream that refuses to grow past {@link #MAX_OUTPUT_BYTES}. */
  private static final class Capped extends OutputStream {
    static final class TooLong extends IOException {
      TooLong() {
        super("more than " + MAX_OUTPUT_BYTES + " bytes");
      }
    }

    private final OutputStream out;
    private long written;

    Capped(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      count(1);
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      count(len);
      out.write(b, off, len);
    }

    private void count(int n) throws TooLong {
      written += n;
      if (written > MAX_OUTPUT_BYTES) {
        throw new TooLong();
      }
    }
  }
}
