package dev.ferry.cli;

import dev.ferry.client.SoapRequest;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** A client's TLS, credentials and extra headers (a picocli mixin of {@code send}). */
final class ClientTlsOptions {
  @Option(names = "--trust", paramLabel = "FILE",
      description = "CA certificates (PEM) an https server's certificate must chain to"
          + " (default: the JDK's). Host names are always checked.")
  Path trust;

  @Option(names = "--cert", paramLabel = "FILE",
      description = "A client certificate chain (PEM), with --key, for servers that ask.")
  Path cert;

  @Option(names = "--key", paramLabel = "FILE", description = "The client certificate's key.")
  Path key;

  @Option(names = "--key-password", paramLabel = "PASSWORD", arity = "0..1", interactive = true,
      description = "The password of an encrypted --key (asked for without a value).")
  char[] keyPassword;

  @Option(names = "--user", paramLabel = "USER[:PASSWORD]",
      description = "HTTP Basic credentials; without :PASSWORD it is read from the"
          + " FERRY_PASSWORD environment variable.")
  String user;

  @Option(names = "--bearer", paramLabel = "TOKEN",
      description = "A bearer token (Authorization: Bearer).")
  String bearer;

  @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'",
      description = "An extra request header; may be given again.")
  List<String> headers = List.of();

  /** The client's TLS, or null for the JDK's defaults. */
  TlsSettings settings(CommandSpec spec) {
    if (trust == null && cert == null && key == null) {
      return null;
    }
    if (cert == null != (key == null)) {
      throw new ParameterException(spec.commandLine(), "--cert and --key go together");
    }
    TlsSettings.Builder b = TlsSettings.builder();
    if (trust != null) {
      b.trust(TrustMaterial.pem(trust));
    }
    if (cert != null) {
      b.identity(KeyMaterial.pem(cert, key, keyPassword));
    }
    try {
      return b.build();
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** Puts the credentials and headers on a request. */
  SoapRequest.Builder apply(CommandSpec spec, SoapRequest.Builder request) {
    try {
      for (String h : headers) {
        int colon = h.indexOf(':');
        if (colon <= 0) {
          throw new IllegalArgumentException("--header expects 'NAME: VALUE', got " + h);
        }
        request.header(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
      }
      if (user != null) {
        int colon = user.indexOf(':');
        String password = colon >= 0 ? user.substring(colon + 1) : System.getenv(
            "FERRY_PASSWORD");
        if (password == null) {
          throw new IllegalArgumentException("--user " + user + " has no password: give"
              + " USER:PASSWORD or set FERRY_PASSWORD");
        }
        request.basicAuth(colon >= 0 ? user.substring(0, colon) : user, password);
      }
      if (bearer != null) {
        request.bearerToken(bearer);
      }
      return request;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
