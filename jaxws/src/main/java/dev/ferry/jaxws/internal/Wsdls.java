package dev.ferry.jaxws.internal;

import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** WSDL documents an endpoint names or a client is given, read as text within a limit. */
final class Wsdls {
  /** The largest WSDL read: far above real contracts, small enough to refuse a stream. */
  static final int MAX_WSDL_BYTES = 4 * 1024 * 1024;

  private Wsdls() {}

  /**
   * Reads the WSDL an endpoint's {@code wsdlLocation} names: a resource of {@code loader} (the
   * implementation's), else a URL.
   */
  static String load(String location, ClassLoader loader) {
    URL url = loader.getResource(location.startsWith("/") ? location.substring(1) : location);
    try {
      if (url == null) {
        url = URI.create(location).toURL();
      }
      return read(url);
    } catch (IllegalArgumentException | IOException e) {
      throw new WebServiceException("cannot read the WSDL at " + location + ": " + e.getMessage(),
          e);
    }
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
