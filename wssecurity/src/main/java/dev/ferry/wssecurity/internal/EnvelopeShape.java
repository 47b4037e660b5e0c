package dev.ferry.wssecurity.internal;

import dev.ferry.soap.SoapVersion;
import javax.xml.stream.XMLStreamReader;

/**
 * Watches the elements of one envelope go by as WSS4J reads it, and tells whether the envelope
 * is one whose Body every reader finds alike: the Envelope's children are an optional Header and
 * one Body, and no other element is called Body where a reader that looks by name could take it
 * for the Body (an element of a SOAP envelope namespace called Body anywhere else, or one of any
 * namespace called Body inside the Header). WSS4J reports what it verified by element path; with
 * this shape, the path {@code Envelope/Body} names exactly the element every reader returns.
 */
final class EnvelopeShape {
  private int depth;
  private int envelopeChildren;
  private boolean header;
  private boolean inHeader;
  private boolean body;
  private String violation;

  /** At a START_ELEMENT of {@code r}. */
  void start(XMLStreamReader r) {
    depth++;
    if (violation != null || depth == 1) {
      return;
    }
    String local = r.getLocalName();
    String ns = r.getNamespaceURI() == null ? "" : r.getNamespaceURI();
    boolean soap = SoapVersion.fromNamespace(ns) != null;
    if (depth == 2) {
      envelopeChild(soap && local.equals("Header"), soap && local.equals("Body"), local);
    } else if (local.equals("Body") && (soap || inHeader)) {
      violation = "an element called Body at depth " + depth + (inHeader ? " in the Header"
          : " in the Body");
    }
  }

  private void envelopeChild(boolean isHeader, boolean isBody, String local) {
    envelopeChildren++;
    if (isHeader && envelopeChildren == 1) {
      header = true;
      inHeader = true;
    } else if (isBody && !body) {
      body = true;
    } else {
      violation = "the Envelope's child " + envelopeChildren + " is " + local + " (expected"
          + " an optional Header, then one Body)";
    }
  }

  /** At an END_ELEMENT. */
  void end() {
    if (depth == 2) {
      inHeader = false;
    }
    depth--;
  }

  /** What is wrong with the envelope read so far, or null. */
  String violation() {
    if (violation == null && depth == 0 && !body) {
      return "the envelope has no Body";
    }
    return violation;
  }

  boolean hasHeader() {
    return header;
  }
}
