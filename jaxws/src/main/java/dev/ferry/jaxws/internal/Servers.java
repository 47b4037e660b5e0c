package dev.ferry.jaxws.internal;

import dev.ferry.jaxws.ServerFeature;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The embedded servers endpoints are published on: one {@link SoapServer} per host and port,
 * shared by every endpoint published there, started with the first (with its scheme and
 * {@link ServerFeature}) and closed with the last.
 */
final class Servers {
  private static final Map<String, Shared> BY_ADDRESS = new HashMap<>();

  private Servers() {}

  /** A server, the scheme and feature it was started with, and the paths it serves. */
  private record Shared(SoapServer server, String scheme, ServerFeature feature,
      URI startedBy, Set<String> paths) {}

  /**
   * Serves {@code dispatcher} at {@code address} ({@code http} or {@code https}), on the server
   * of its host and port, started here with {@code feature} (null: the defaults) if there is
   * none yet; returns the URL it answers at.
   *
   * @throws WebServiceException if the address is not http(s) with a host, the server there was
   *     started with another scheme or feature, the path is taken, or the server cannot start
   */
  static synchronized URI publish(URI address, SoapCodec codec, Dispatcher dispatcher,
      ServerFeature feature) {
    String scheme = address.getScheme() == null ? "" : address.getScheme()
        .toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || address.getHost() == null) {
      throw new WebServiceException("expected an http:// or https:// address with a host, got "
          + address);
    }
    String path = pathOf(address);
    String key = address.getHost() + ":" + address.getPort();
    Shared shared = BY_ADDRESS.get(key);
    if (shared == null) {
      shared = start(address, scheme, codec, feature);
      BY_ADDRESS.put(key, shared);
    } else if (!shared.scheme().equals(scheme) || shared.feature() != feature) {
      throw new WebServiceException("cannot publish at " + address + ": the server at "
          + address.getHost() + ":" + address.getPort() + " was started by " + shared.startedBy()
          + " with " + (shared.feature() == null ? "no ServerFeature" : shared.feature())
          + ", and every endpoint of one host and port shares its scheme and ServerFeature"
          + " (the same object)");
    }
    if (!shared.paths().add(path)) {
      throw new WebServiceException("an endpoint is already published at " + address);
    }
    shared.server().addEndpoint(path, codec, dispatcher);
    URI at = shared.server().uri(path);
    return URI.create(scheme + "://" + address.getHost() + ":" + at.getPort() + path);
  }

  private static Shared start(URI address, String scheme, SoapCodec codec,
      ServerFeature feature) {
    SoapServer.Builder b = SoapServer.builder().host(address.getHost())
        .port(address.getPort() >= 0 ? address.getPort() : scheme.equals("https") ? 443 : 80)
        .codec(codec);
    if (feature != null) {
      b.options(feature.options()).metrics(feature.metrics());
    }
    if (scheme.equals("https")) {
      b.tls(feature != null && feature.tls() != null ? feature.tls() : jdkTls(address));
    } else if (feature != null && feature.tls() != null) {
      throw new WebServiceException("the ServerFeature of " + address + " has TLS settings:"
          + " publish at https://");
    }
    try {
      return new Shared(b.build().start(), scheme, feature, address, new HashSet<>());
    } catch (IOException e) {
      throw new WebServiceException("cannot listen at " + address + ": " + e.getMessage(), e);
    }
  }

  /**
   * The key the JDK's default {@code SSLContext} is configured with (the
   * {@code javax.net.ssl.keyStore} system properties), as Ferry's TLS settings: reloaded when
   * the file changes, with Ferry's protocols and cipher suites.
   */
  private static TlsSettings jdkTls(URI address) {
    String store = System.getProperty("javax.net.ssl.keyStore");
    if (store == null || store.isBlank() || store.equals("NONE")) {
      throw new WebServiceException(address + " needs the server's key: give the endpoint a"
          + " ServerFeature with TLS settings, or set javax.net.ssl.keyStore and"
          + " javax.net.ssl.keyStorePassword (the JDK's default SSLContext)");
    }
    String password = System.getProperty("javax.net.ssl.keyStorePassword");
    try {
      return TlsSettings.builder().identity(KeyMaterial.keyStore(Path.of(store),
          password == null ? null : password.toCharArray())).build();
    } catch (IOException e) {
      throw new WebServiceException(address + ": cannot read the key store of"
          + " javax.net.ssl.keyStore: " + e.getMessage(), e);
    }
  }

  private static String pathOf(URI address) {
    return address.getPath() == null || address.getPath().isEmpty() ? "/" : address.getPath();
  }

  /** Stops serving {@code address}; closes its server if nothing else is served there. */
  static synchronized void unpublish(URI address) {
    String key = address.getHost() + ":" + address.getPort();
    Shared shared = BY_ADDRESS.get(key);
    if (shared == null) {
      return;
    }
    String path = pathOf(address);
    shared.server().removeEndpoint(path);
    shared.paths().remove(path);
    if (shared.paths().isEmpty()) {
      BY_ADDRESS.remove(key);
      try {
        shared.server().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
