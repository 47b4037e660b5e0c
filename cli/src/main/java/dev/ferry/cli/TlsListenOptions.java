package dev.ferry.cli;

import dev.ferry.security.Authenticator;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** A listener's TLS and who may call it (a picocli mixin of {@code serve} and {@code broker}). */
final class TlsListenOptions {
  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "Listen with TLS: the certificate chain (PEM), with --tls-key.")
  Path cert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "The private key (PEM: PKCS#8, encrypted PKCS#8, PKCS#1 or SEC1).")
  Path key;

  @Option(names = "--tls-keystore", paramLabel = "FILE",
      description = "Listen with TLS: key and chain from a PKCS#12 file (instead of PEM).")
  Path keyStore;

  @Option(names = "--tls-password", paramLabel = "PASSWORD", arity = "0..1", interactive = true,
      description = "The password of an encrypted key or of the PKCS#12 file (asked for"
          + " when given without a value).")
  char[] password;

  @Option(names = "--client-ca", paramLabel = "FILE",
      description = "CA certificates (PEM) client certificates must chain to.")
  Path clientCa;

  @Option(names = "--client-auth", paramLabel = "MODE",
      description = "Client certificates: ${COMPLETION-CANDIDATES}. Default: REQUIRED with"
          + " --client-ca, else NONE.")
  ClientAuth clientAuth;

  @Option(names = "--users", paramLabel = "FILE",
      description = "Callers must authenticate with HTTP Basic against this file of salted"
          + " password hashes (lines from 'ferry passwd'); read again when it changes.")
  Path users;

  @Option(names = "--cert-auth",
      description = "Callers are identified by their client certificate (needs --client-ca);"
          + " with --users, those who send no credentials.")
  boolean certAuth;

  /** Whether TLS was asked for. */
  boolean tls() {
    return cert != null || key != null || keyStore != null;
  }

  /** The listener's TLS, or null for plain HTTP; a usage error for options that do not fit. */
  TlsSettings settings(CommandSpec spec) {
    if (!tls()) {
      if (clientCa != null || clientAuth != null) {
        throw usage(spec, "--client-ca and --client-auth need TLS: give --tls-cert and"
            + " --tls-key, or --tls-keystore");
      }
      return null;
    }
    if (keyStore != null == (cert != null || key != null) || keyStore == null
        && (cert == null || key == null)) {
      throw usage(spec, "give --tls-cert with --tls-key, or --tls-keystore");
    }
    TlsSettings.Builder b = TlsSettings.builder().identity(keyStore != null
        ? KeyMaterial.keyStore(keyStore, password) : KeyMaterial.pem(cert, key, password));
    ClientAuth mode = clientAuthMode();
    if (mode != ClientAuth.NONE && clientCa == null) {
      throw usage(spec, "--client-auth " + mode + " needs --client-ca");
    }
    if (clientCa != null) {
      b.trust(TrustMaterial.pem(clientCa)).clientAuth(mode);
    }
    try {
      return b.build();
    } catch (IOException e) {
      throw usage(spec, e.getMessage());
    }
  }

  /** Who may call, or null for everyone. */
  Authenticator authenticator(CommandSpec spec) {
    if (certAuth && clientCa == null) {
      throw usage(spec, "--cert-auth needs --client-ca (and TLS)");
    }
    if (users == null) {
      return certAuth ? Authenticator.certificate() : null;
    }
    try {
      Authenticator basic = Authenticator.basic(PasswordFile.load(users));
      return certAuth ? basic.orCertificate() : basic;
    } catch (IOException e) {
      throw usage(spec, "--users: " + e.getMessage());
    }
  }

  private static ParameterException usage(CommandSpec spec, String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The --client-auth given, else as its help says: REQUIRED with --client-ca, NONE without. */
  ClientAuth clientAuthMode() {
    return clientAuth != null ? clientAuth
        : clientCa != null ? ClientAuth.REQUIRED : ClientAuth.NONE;
  }
}
