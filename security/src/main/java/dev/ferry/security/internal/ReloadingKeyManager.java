package dev.ferry.security.internal;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager with one key and chain, read again when its files change: each new handshake
 * takes the newest. Aliases name a generation ({@code ferry-3}) and the previous one stays
 * known, so a handshake that chose its alias just before a reload still finds its key.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {
  /** One loaded key and chain. */
  public record Generation(PrivateKey key, X509Certificate[] chain) {}

  private record Named(String alias, Generation g) {}

  private final Reloading<Generation> source;
  private volatile Named current;
  private volatile Named previous;

  public ReloadingKeyManager(Reloading<Generation> source) {
    this.source = source;
    this.current = new Named("ferry-0", source.get());
  }

  private Named now() {
    Generation g = source.get();
    Named c = current;
    if (g != c.g()) {
      synchronized (this) {
        c = current;
        if (g != c.g()) {
          previous = c;
          c = new Named("ferry-" + source.generation(), g);
          current = c;
        }
      }
    }
    return c;
  }

  /** Whether the key can serve a handshake that asks for {@code keyType}. */
  private static boolean fits(Named n, String keyType) {
    String alg = n.g().key().getAlgorithm();
    return keyType.equals(alg) || keyType.startsWith(alg + "_")
        || alg.equals("EdDSA") && keyType.startsWith("Ed");
  }

  private String choose(String[] keyTypes) {
    Named n = now();
    for (String t : keyTypes) {
      if (fits(n, t)) {
        return n.alias();
      }
    }
    return null;
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return choose(new String[] {keyType});
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return choose(new String[] {keyType});
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers,
      SSLEngine engine) {
    return choose(keyTypes);
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return choose(keyTypes);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    String a = choose(new String[] {keyType});
    return a == null ? null : new String[] {a};
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return getServerAliases(keyType, issuers);
  }

  private Generation find(String alias) {
    Named c = current;
    if (c.alias().equals(alias)) {
      return c.g();
    }
    Named p = previous;
    return p != null && p.alias().equals(alias) ? p.g() : null;
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    Generation g = find(alias);
    return g == null ? null : g.chain().clone();
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    Generation g = find(alias);
    return g == null ? null : g.key();
  }

  /** The chain served now (for tests and logs). */
  public X509Certificate[] currentChain() {
    return now().g().chain().clone();
  }
}
