package dev.ferry.server.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Loads a WSDL and the documents it reaches by relative locations, and rewrites each location
 * to the query that serves the document: {@code ADDRESS?wsdl=KEY} or {@code ADDRESS?xsd=KEY},
 * ADDRESS filled in per request. A document is a template: its serialized text cut where the
 * address goes.
 *
 * <p>Keys are the documents' paths relative to the root's folder, worked out from the locations
 * as written ({@code ../a/./b.xsd} from {@code x/y.wsdl} is {@code a/b.xsd}), so they do not
 * depend on where the files are (a folder, a jar). A document reached twice (by two paths, or a
 * cycle) is loaded once, by its URL.
 */
public final class ImportedDocuments {
  public static final int MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
  public static final int MAX_DOCUMENTS = 256;
  private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
  private static final String XSD = "http://www.w3.org/2001/XMLSchema";
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");

  /** A document as served: pieces of text with the service's address between them. */
  public static final class Served {
    private final String original;
    private final List<String> pieces;

    private Served(String original, List<String> pieces) {
      this.original = original;
      this.pieces = List.copyOf(pieces);
    }

    /** The text as read. */
    public String original() {
      return original;
    }

    /** The text with every rewritten location pointing at {@code address}. */
    public String at(String address) {
      return String.join(address, pieces);
    }
  }

  /** A document being loaded: where it is, its key, whether it is a WSDL, its tree. */
  private record Loaded(URL url, String key, boolean wsdl, String text, Document dom) {}

  private final Map<String, Loaded> byUrl = new HashMap<>();
  private final List<Loaded> order = new ArrayList<>();
  private final Map<String, Served> wsdls = new LinkedHashMap<>();
  private final Map<String, Served> schemas = new LinkedHashMap<>();
  private Served root;

  private ImportedDocuments() {}

  /** A WSDL on its own: served as it is. */
  public static ImportedDocuments single(String wsdl) {
    ImportedDocuments d = new ImportedDocuments();
    d.root = new Served(wsdl, List.of(wsdl));
    return d;
  }

  /** Loads the WSDL at {@code url} and what it reaches; see the class comment. */
  public static ImportedDocuments load(URL url) throws IOException {
    ImportedDocuments d = new ImportedDocuments();
    Loaded root = d.read(url, "", null);
    d.root = d.rewrite(root);
    // rewriting a document loads those it names: go on until no document is left unwritten
    for (int i = 1; i < d.order.size(); i++) {
      Loaded l = d.order.get(i);
      (l.wsdl() ? d.wsdls : d.schemas).put(l.key(), d.rewrite(l));
    }
    return d;
  }

  public Served root() {
    return root;
  }

  public Map<String, Served> wsdls() {
    return Collections.unmodifiableMap(wsdls);
  }

  public Map<String, Served> schemas() {
    return Collections.unmodifiableMap(schemas);
  }

  /** Reads and parses the document at {@code url}, then those it reaches, depth first. */
  private Loaded read(URL url, String key, URL importedBy) throws IOException {
    Loaded seen = byUrl.get(url.toString());
    if (seen != null) {
      return seen;
    }
    if (byUrl.size() >= MAX_DOCUMENTS) {
      throw new IOException("more than " + MAX_DOCUMENTS + " documents are imported from "
          + order.get(0).url() + " (" + url + " is one too many)");
    }
    byte[] bytes = fetch(url, importedBy);
    Document dom = parse(bytes, url);
    Element top = dom.getDocumentElement();
    // a schema is served at ?xsd=, anything else (a WSDL, even one in no namespace) at ?wsdl=
    boolean wsdl = !(XSD.equals(top.getNamespaceURI()) && "schema".equals(top.getLocalName()));
    Loaded l = new Loaded(url, unique(key), wsdl, new String(bytes, StandardCharsets.UTF_8), dom);
    byUrl.put(url.toString(), l);
    order.add(l);
    return l;
  }

  private String unique(String key) {
    String k = key;
    for (int i = 2; keyTaken(k); i++) {
      k = key + "." + i;
    }
    return k;
  }

  private boolean keyTaken(String key) {
    return order.stream().anyMatch(l -> l.key().equals(key));
  }

  /**
   * Rewrites the relative locations of {@code l}, loading each document they name first, and
   * cuts its text where the address goes; a document with none is served as it was read.
   */
  private Served rewrite(Loaded l) throws IOException {
    String token = token(l.text());
    int rewritten = 0;
    Deque<Element> todo = new ArrayDeque<>();
    todo.push(l.dom().getDocumentElement());
    while (!todo.isEmpty()) {
      Element e = todo.pop();
      String attribute = locationAttribute(e);
      String location = attribute == null ? null : e.getAttribute(attribute);
      if (location != null && !location.isEmpty() && !SCHEME.matcher(location).matches()) {
        Loaded target = read(resolve(l.url(), location), child(l.key(), location), l.url());
        e.setAttribute(attribute, token + (target.wsdl() ? "?wsdl=" : "?xsd=")
            + encode(target.key()));
        rewritten++;
      }
      for (Node n = e.getLastChild(); n != null; n = n.getPreviousSibling()) {
        if (n instanceof Element child) {
          todo.push(child);
        }
      }
    }
    if (rewritten == 0) {
      return new Served(l.text(), List.of(l.text()));
    }
    return new Served(l.text(), List.of(serialize(l.dom()).split(Pattern.quote(token), -1)));
  }

  /** The attribute of {@code e} that names another document, or null. */
  private static String locationAttribute(Element e) {
    String ns = e.getNamespaceURI();
    String local = e.getLocalName();
    if (WSDL.equals(ns) && local.equals("import")) {
      return "location";
    }
    if (XSD.equals(ns) && (local.equals("import") || local.equals("include")
        || local.equals("redefine") || local.equals("override"))) {
      return "schemaLocation";
    }
    return null;
  }

  /** A string that does not occur in {@code text}, to mark where the address goes. */
  private static String token(String text) {
    String token = "urn:ferry:service-address";
    for (int i = 0; text.contains(token); i++) {
      token = "urn:ferry:service-address:" + i;
    }
    return token;
  }

  private static URL resolve(URL base, String location) throws IOException {
    try {
      return new URL(base, location);
    } catch (MalformedURLException e) {
      throw new IOException("cannot resolve \"" + location + "\" against " + base + ": "
          + e.getMessage(), e);
    }
  }

  /** The key of the document {@code location} names from the document of {@code parentKey}. */
  static String child(String parentKey, String location) {
    String path = location;
    int cut = indexOfAny(path, '?', '#');
    if (cut >= 0) {
      path = path.substring(0, cut);
    }
    try {
      path = java.net.URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      // a stray '%' is not an escape: the location as written is the key
    }
    String folder = parentKey.contains("/")
        ? parentKey.substring(0, parentKey.lastIndexOf('/') + 1) : "";
    return normalize(folder + path);
  }

  private static int indexOfAny(String s, char a, char b) {
    int i = s.indexOf(a);
    int j = s.indexOf(b);
    return i < 0 ? j : j < 0 ? i : Math.min(i, j);
  }

  /** Resolves "." and ".." segments; ".." that climbs above the root's folder is kept. */
  static String normalize(String path) {
    Deque<String> out = new ArrayDeque<>();
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..") && !out.isEmpty() && !out.peekLast().equals("..")) {
        out.removeLast();
      } else {
        out.addLast(segment);
      }
    }
    return String.join("/", out);
  }

  /** Percent-encodes a key for a query: all but unreserved characters and '/'. */
  static String encode(String key) {
    StringBuilder s = new StringBuilder(key.length());
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
        s.append(c);
      } else {
        s.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return s.toString();
  }

  private static byte[] fetch(URL url, URL importedBy) throws IOException {
    try (InputStream in = url.openStream()) {
      byte[] bytes = in.readNBytes(MAX_DOCUMENT_BYTES + 1);
      if (bytes.length > MAX_DOCUMENT_BYTES) {
        throw new IOException(url + " is larger than " + MAX_DOCUMENT_BYTES + " bytes");
      }
      return bytes;
    } catch (IOException e) {
      throw new IOException("cannot read " + url + (importedBy == null ? ""
          : ", imported by " + importedBy) + ": " + e.getMessage(), e);
    }
  }

  private static final DocumentBuilderFactory PARSERS = parsers();
  private static final TransformerFactory TRANSFORMERS = transformers();

  private static DocumentBuilderFactory parsers() {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setXIncludeAware(false);
    f.setExpandEntityReferences(false);
    try {
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the JDK's parser refuses to turn DTDs off", e);
    }
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    return f;
  }

  private static TransformerFactory transformers() {
    TransformerFactory f = TransformerFactory.newInstance();
    try {
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    } catch (javax.xml.transform.TransformerConfigurationException e) {
      throw new IllegalStateException("the JDK's transformer refuses secure processing", e);
    }
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
    return f;
  }

  private static Document parse(byte[] bytes, URL url) throws IOException {
    try {
      DocumentBuilder b;
      synchronized (PARSERS) {
        b = PARSERS.newDocumentBuilder();
      }
      b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
        @Override
        public void error(org.xml.sax.SAXParseException e) throws SAXException {
          throw e;
        }
      });
      return b.parse(new ByteArrayInputStream(bytes), url.toString());
    } catch (SAXException | ParserConfigurationException e) {
      throw new IOException("cannot parse " + url + ": " + e.getMessage(), e);
    }
  }

  private static String serialize(Document dom) throws IOException {
    java.io.StringWriter out = new java.io.StringWriter();
    try {
      Transformer t;
      synchronized (TRANSFORMERS) {
        t = TRANSFORMERS.newTransformer();
      }
      t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      t.transform(new DOMSource(dom), new StreamResult(out));
    } catch (TransformerException e) {
      throw new IOException("cannot write " + dom.getDocumentURI() + ": " + e.getMessage(), e);
    }
    return out.toString();
  }
}
