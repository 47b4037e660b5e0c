package dev.ferry.jaxws.internal;

import dev.ferry.server.WsdlDocuments;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** WSDL documents an endpoint names or a client is given, read as text within a limit. */
final class Wsdls {
  /** The largest WSDL read: far above real contracts, small enough to refuse a stream. */
  static final int MAX_WSDL_BYTES = WsdlDocuments.MAX_DOCUMENT_BYTES;
  /** The prefix of a class path location, as CXF's users write it. */
  private static final String CLASSPATH = "classpath:";

  private Wsdls() {}

  /**
   * Reads the WSDL an endpoint's {@code wsdlLocation} names, and every document it imports by a
   * relative location: {@code classpath:path} is a resource of {@code loader} (the
   * implementation's); a plain path is such a resource if there is one, else a URL.
   *
   * @throws WebServiceException if a document cannot be found or read, naming it
   */
  static WsdlDocuments load(String location, ClassLoader loader) {
    try {
      return WsdlDocuments.load(locate(location, loader));
    } catch (IllegalArgumentException | IOException e) {
      throw new WebServiceException("cannot read the WSDL at " + location + ": " + e.getMessage(),
          e);
    }
  }

  private static URL locate(String location, ClassLoader loader) throws IOException {
    boolean classpath = location.startsWith(CLASSPATH);
    String path = classpath ? location.substring(CLASSPATH.length()) : location;
    URL url = loader.getResource(path.startsWith("/") ? path.substring(1) : path);
    if (url != null) {
      return url;
    }
    if (classpath) {
      throw new IOException("no resource " + path + " on the class path of " + loader);
    }
    return URI.create(location).toURL();
  }

  /** Reads {@code url} whole, refusing more than {@link #MAX_WSDL_BYTES}. */
  static String read(URL url) throws IOException {
    try (InputStream in = url.openStream()) {
      byte[] bytes = in.readNBytes(MAX_WSDL_BYTES + 1);
      if (bytes.length > MAX_WSDL_BYTES) {
        throw new IOException("the WSDL at " + url + " is larger than " + MAX_WSDL_BYTES
            + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
