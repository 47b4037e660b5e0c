package dev.ferry.client.internal;

import dev.ferry.security.TlsSettings;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.SSLException;

/**
 * Netty's TLS contexts for {@link TlsSettings}: the JDK's engine with the settings' reloading
 * key and trust managers, protocols and cipher suites. A client's checks the server's host name.
 */
public final class NettyTls {
  private NettyTls() {}

  /** A client's context: its trust, its certificate if it has one, host names checked. */
  public static SslContext client(TlsSettings s) {
    try {
      SslContextBuilder b = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
          .trustManager(s.trustManager()).protocols(s.protocols()).ciphers(s.cipherSuites())
          .endpointIdentificationAlgorithm("HTTPS");
      if (s.keyManager() != null) {
        b.keyManager(s.keyManager());
      }
      return b.build();
    } catch (SSLException e) {
      throw new IllegalStateException("the JDK's TLS cannot be set up: " + e.getMessage(), e);
    }
  }

  /** A listener's context: its key, and client certificates asked for as the settings say. */
  public static SslContext server(TlsSettings s) {
    if (s.keyManager() == null) {
      throw new IllegalArgumentException("a TLS listener needs an identity (its key and chain)");
    }
    try {
      return SslContextBuilder.forServer(s.keyManager()).sslProvider(SslProvider.JDK)
          .trustManager(s.trustManager()).protocols(s.protocols()).ciphers(s.cipherSuites())
          .clientAuth(switch (s.clientAuth()) {
            case NONE -> io.netty.handler.ssl.ClientAuth.NONE;
            case OPTIONAL -> io.netty.handler.ssl.ClientAuth.OPTIONAL;
            case REQUIRED -> io.netty.handler.ssl.ClientAuth.REQUIRE;
          }).build();
    } catch (SSLException e) {
      throw new IllegalStateException("the JDK's TLS cannot be set up: " + e.getMessage(), e);
    }
  }
}
