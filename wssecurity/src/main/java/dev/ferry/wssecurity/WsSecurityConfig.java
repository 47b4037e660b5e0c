package dev.ferry.wssecurity;

import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.MessageGuardFactory;
import dev.ferry.soap.SettingValues;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509CRL;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * Makes a {@link WsSecurity} from a configuration section ({@code ws-security}), as a broker
 * route's {@code wsSecurity} or a served endpoint's has it:
 *
 * <pre>
 * wsSecurity:
 *   inbound:                  # what a received message must carry
 *     usernameToken: digest   # or text
 *     timestamp: 5m           # a Timestamp, at most this old
 *     clockSkew: 60s
 *     signBody: true
 *     signTimestamp: true
 *     signHeaders: ["{http://www.w3.org/2005/08/addressing}To"]
 *     encryptBody: true
 *     allowWeakAlgorithms: false
 *     allowTextPasswordWithoutNonce: false  # a text UsernameToken must have Nonce and Created
 *     validateSchema: true    # false for encrypted messages from Metro
 *   outbound:                 # what a sent message gets (same keys)
 *     timestamp: 5m
 *     signBody: true
 *   trust: ca.pem             # signers' certificates must chain to these (PEM, or .p12/.jks)
 *   trustPassword: changeit
 *   crl: revoked.crl          # PEM CRLs
 *   certificate: node.pem     # this node's key: signs, decrypts
 *   key: node.key
 *   keyStore: node.p12        # or both in PKCS#12
 *   password: changeit        # the key's or the store's
 *   passwords: users.txt      # a password file, for incoming text UsernameTokens
 *   user: alice               # outgoing UsernameTokens
 *   userPassword: wonderland
 *   recipient: peer.pem       # outgoing Bodies are encrypted for this certificate
 * </pre>
 *
 * Relative file names are read from the configuration's folder.
 */
public final class WsSecurityConfig implements MessageGuardFactory {
  private static final Set<String> KEYS = Set.of("inbound", "outbound", "trust",
      "trustPassword", "crl", "certificate", "key", "keyStore", "password", "passwords", "user",
      "userPassword", "recipient");
  private static final Set<String> POLICY_KEYS = Set.of("usernameToken", "timestamp",
      "clockSkew", "signBody", "signTimestamp", "signHeaders", "encryptBody",
      "allowWeakAlgorithms", "allowTextPasswordWithoutNonce", "validateSchema");

  /** Made by the service loader. */
  public WsSecurityConfig() {}

  @Override
  public String type() {
    return "ws-security";
  }

  @Override
  public MessageGuard create(Map<String, ?> settings, Path base) throws IOException {
    check(settings, KEYS, "");
    WsSecurityCredentials.Builder c = WsSecurityCredentials.builder();
    String trust = text(settings, "trust");
    if (trust != null) {
      Path f = base.resolve(trust);
      c.trust(isStore(f) ? TrustMaterial.keyStore(f, chars(text(settings, "trustPassword")))
          : TrustMaterial.pem(f));
    }
    String crl = text(settings, "crl");
    if (crl != null) {
      c.revoked(TrustMaterial.crls(base.resolve(crl)).toArray(X509CRL[]::new));
    }
    char[] password = chars(text(settings, "password"));
    String store = text(settings, "keyStore");
    String cert = text(settings, "certificate");
    String key = text(settings, "key");
    if (store != null) {
      c.key(KeyMaterial.keyStore(base.resolve(store), password));
    } else if (cert != null && key != null) {
      c.key(KeyMaterial.pem(base.resolve(cert), base.resolve(key), password));
    } else if (cert != null || key != null) {
      throw new IllegalArgumentException("certificate and key go together");
    }
    String passwords = text(settings, "passwords");
    if (passwords != null) {
      c.passwordFile(PasswordFile.load(base.resolve(passwords)));
    }
    String user = text(settings, "user");
    if (user != null) {
      c.user(user, chars(text(settings, "userPassword")));
    }
    String recipient = text(settings, "recipient");
    if (recipient != null) {
      c.recipient(TrustMaterial.pem(base.resolve(recipient)).load().get(0));
    }
    try {
      return WsSecurity.builder().inbound(policy(settings.get("inbound"), "inbound"))
          .outbound(policy(settings.get("outbound"), "outbound")).credentials(c.build())
          .build();
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static WsSecurityPolicy policy(Object section, String where) {
    if (section == null) {
      return WsSecurityPolicy.NONE;
    }
    if (!(section instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(where + ": expected a mapping");
    }
    check(m, POLICY_KEYS, where + ".");
    WsSecurityPolicy.Builder b = WsSecurityPolicy.builder();
    String ut = text(m, "usernameToken");
    if (ut != null) {
      try {
        b.usernameToken(WsSecurityPolicy.Password.valueOf(ut.toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ".usernameToken: expected text or digest,"
            + " got " + ut, e);
      }
    }
    if (m.get("timestamp") != null) {
      b.timestamp(SettingValues.duration(m.get("timestamp"), where + ".timestamp"));
    }
    if (m.get("clockSkew") != null) {
      b.clockSkew(SettingValues.duration(m.get("clockSkew"), where + ".clockSkew"));
    }
    if (flag(m, "signBody", where)) {
      b.signBody();
    }
    if (flag(m, "signTimestamp", where)) {
      b.signTimestamp();
    }
    if (flag(m, "encryptBody", where)) {
      b.encryptBody();
    }
    b.allowWeakAlgorithms(flag(m, "allowWeakAlgorithms", where));
    b.allowTextPasswordWithoutNonce(flag(m, "allowTextPasswordWithoutNonce", where));
    if (m.get("validateSchema") != null) {
      b.validateSchema(flag(m, "validateSchema", where));
    }
    Object headers = m.get("signHeaders");
    if (headers != null) {
      if (!(headers instanceof List<?> list)) {
        throw new IllegalArgumentException(where + ".signHeaders: expected a list");
      }
      for (Object h : list) {
        b.signHeader(QName.valueOf(String.valueOf(h)));
      }
    }
    return b.build();
  }

  private static void check(Map<?, ?> m, Set<String> known, String where) {
    for (Object k : m.keySet()) {
      if (!known.contains(String.valueOf(k))) {
        throw new IllegalArgumentException(where + k + ": unknown key (known: "
            + known.stream().sorted().toList() + ")");
      }
    }
  }

  private static String text(Map<?, ?> m, String key) {
    Object v = m.get(key);
    return v == null ? null : String.valueOf(v).strip();
  }

  private static boolean flag(Map<?, ?> m, String key, String where) {
    Object v = m.get(key);
    if (v == null || v instanceof Boolean) {
      return Boolean.TRUE.equals(v);
    }
    throw new IllegalArgumentException(where + "." + key + ": expected true or false, got " + v);
  }

  private static boolean isStore(Path f) {
    String n = f.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".p12") || n.endsWith(".pfx") || n.endsWith(".jks");
  }

  private static char[] chars(String s) {
    return s == null ? null : s.toCharArray();
  }
}
