package dev.ferry.server;

import dev.ferry.server.internal.ImportedDocuments;
import dev.ferry.soap.SoapBinding;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A service's WSDL and the documents it imports or includes, as a server serves them: the WSDL
 * at {@code ?wsdl}, an imported WSDL at {@code ?wsdl=KEY} and a schema at {@code ?xsd=KEY}
 * (CXF's scheme), where KEY is the document's path relative to the WSDL's own
 * ({@code types.xsd}, {@code common/base.xsd}, {@code ../shared/codes.xsd}). Every relative
 * location ({@code wsdl:import}, {@code xsd:import}, {@code xsd:include}, {@code xsd:redefine})
 * is followed when the documents are loaded, at any depth, and served pointing at the service's
 * own address; every port's {@code soap:address} is the service's address. Absolute locations
 * ({@code http://www.w3.org/...}) are left as they are and not fetched.
 *
 * <p>Only the documents found when loading are served: a key names one of them or nothing, so a
 * query cannot reach any other file. Immutable and thread-safe.
 *
 * <pre>{@code
 * WsdlDocuments docs = WsdlDocuments.load(getClass().getResource("/wsdl/orders.wsdl"));
 * String types = docs.document("xsd=types.xsd", "http://host:8080/orders");
 * // its xsd:import of "common.xsd" now reads
 * // schemaLocation="http://host:8080/orders?xsd=common.xsd"
 * }</pre>
 */
public final class WsdlDocuments {
  /** The largest document read: far above real contracts, small enough to refuse a stream. */
  public static final int MAX_DOCUMENT_BYTES = ImportedDocuments.MAX_DOCUMENT_BYTES;
  /** The most documents one WSDL may pull in, itself included. */
  public static final int MAX_DOCUMENTS = ImportedDocuments.MAX_DOCUMENTS;

  private final ImportedDocuments.Served root;
  private final Map<String, ImportedDocuments.Served> wsdls;
  private final Map<String, ImportedDocuments.Served> schemas;

  private WsdlDocuments(ImportedDocuments docs) {
    this.root = docs.root();
    this.wsdls = docs.wsdls();
    this.schemas = docs.schemas();
  }

  /** One WSDL that imports nothing by a relative location, served as it is. */
  public static WsdlDocuments of(String wsdl) {
    return new WsdlDocuments(ImportedDocuments.single(wsdl));
  }

  /**
   * Reads the WSDL at {@code url} (a file, a class path resource, any URL the JDK opens) and
   * every document it reaches by relative locations, with no DTD and within
   * {@link #MAX_DOCUMENT_BYTES} each and {@link #MAX_DOCUMENTS} in all.
   *
   * @throws IOException if a document cannot be read or parsed, naming it and which document
   *     imports it
   */
  public static WsdlDocuments load(URL url) throws IOException {
    return new WsdlDocuments(ImportedDocuments.load(url));
  }

  /** Returns the WSDL as it was read (its imports not rewritten). */
  public String wsdl() {
    return root.original();
  }

  /** Returns the keys of the imported WSDLs ({@code ?wsdl=KEY}), in the order they were found. */
  public List<String> wsdlKeys() {
    return new ArrayList<>(wsdls.keySet());
  }

  /** Returns the keys of the schemas ({@code ?xsd=KEY}), in the order they were found. */
  public List<String> schemaKeys() {
    return new ArrayList<>(schemas.keySet());
  }

  /**
   * Returns the document a GET's query names ({@code wsdl}, {@code wsdl=KEY} or
   * {@code xsd=KEY}, the key percent-encoded or not) as served at {@code address}, or null if
   * the query names none of these documents.
   */
  public String document(String query, String address) {
    if (query == null) {
      return null;
    }
    if (query.equalsIgnoreCase("wsdl")) {
      return SoapBinding.withServiceAddress(root.at(address), address);
    }
    int eq = query.indexOf('=');
    if (eq < 0) {
      return null;
    }
    String kind = query.substring(0, eq).toLowerCase(Locale.ROOT);
    String key = decode(query.substring(eq + 1));
    return switch (kind) {
      case "wsdl" -> {
        ImportedDocuments.Served d = key == null ? null : wsdls.get(key);
        yield d == null ? null : SoapBinding.withServiceAddress(d.at(address), address);
      }
      case "xsd" -> {
        ImportedDocuments.Served d = key == null ? null : schemas.get(key);
        yield d == null ? null : d.at(address);
      }
      default -> null;
    };
  }

  /** Returns true if {@code query} asks for one of these documents' kinds at all. */
  public static boolean isDocumentQuery(String query) {
    if (query == null) {
      return false;
    }
    String q = query.toLowerCase(Locale.ROOT);
    return q.equals("wsdl") || q.startsWith("wsdl=") || q.startsWith("xsd=");
  }

  /** Percent-decodes a query value ('+' stays '+'); null if it is not well formed. */
  private static String decode(String value) {
    try {
      return java.net.URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "WsdlDocuments[" + wsdls.size() + " imported WSDLs, " + schemas.size() + " schemas]";
  }
}
