package dev.ferry.bench.wss;

import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import java.time.Duration;

/**
 * The keys and policies of the WS-Security benchmarks: one throw-away CA, client and service
 * keys of one type (RSA-2048, what CXF's users mostly have, or EC P-256, where the signature
 * costs a tenth), and the policies compared.
 */
final class WssKeys {
  static final TestPki PKI = TestPki.create("CN=Bench WSS CA", TestPki.KeyType.RSA);
  static final TestPki.Credential CLIENT = PKI.issue("CN=client,O=Ferry")
      .keyType(TestPki.KeyType.RSA).make();
  static final TestPki.Credential SERVICE = PKI.issue("CN=service,O=Ferry")
      .keyType(TestPki.KeyType.RSA).make();
  static final TestPki.Credential EC_CLIENT = PKI.issue("CN=client,O=Ferry").make();
  static final TestPki.Credential EC_SERVICE = PKI.issue("CN=service,O=Ferry").make();

  /** The client's and the service's key of {@code type} (RSA or EC). */
  static TestPki.Credential clientKey(String type) {
    return type.equals("EC") ? EC_CLIENT : CLIENT;
  }

  static TestPki.Credential serviceKey(String type) {
    return type.equals("EC") ? EC_SERVICE : SERVICE;
  }

  /** A Timestamp, and the Body and Timestamp signed; both ways. */
  static final WsSecurityPolicy SIGNED = signed(true);

  private WssKeys() {}

  /**
   * A digest UsernameToken and a Timestamp on the request (nothing on the reply), received
   * headers checked against the schema or not.
   */
  static WsSecurityPolicy usernameToken(boolean validateSchema) {
    return WsSecurityPolicy.builder().usernameToken(WsSecurityPolicy.Password.DIGEST)
        .timestamp(Duration.ofMinutes(5)).validateSchema(validateSchema).build();
  }

  /** {@link #SIGNED}, its received headers checked against the schema or not. */
  static WsSecurityPolicy signed(boolean validateSchema) {
    return WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5)).signBody()
        .signTimestamp().validateSchema(validateSchema).build();
  }

  /** The client's credentials: its user, its RSA key, the CA. */
  static WsSecurityCredentials client() {
    return client("RSA");
  }

  /** The client's credentials: its user, its key of {@code type}, the CA. */
  static WsSecurityCredentials client(String type) {
    TestPki.Credential k = clientKey(type);
    return WsSecurityCredentials.builder().user("alice", "wonderland".toCharArray())
        .key(KeyMaterial.of(k.key(), k.chain()))
        .trust(TrustMaterial.of(PKI.certificate())).build();
  }

  /** The service's credentials: alice's password, its RSA key, the CA. */
  static WsSecurityCredentials service() {
    return service("RSA");
  }

  /** The service's credentials: alice's password, its key of {@code type}, the CA. */
  static WsSecurityCredentials service(String type) {
    TestPki.Credential k = serviceKey(type);
    return WsSecurityCredentials.builder().passwords(u -> "wonderland".toCharArray())
        .key(KeyMaterial.of(k.key(), k.chain()))
        .trust(TrustMaterial.of(PKI.certificate())).build();
  }
}
