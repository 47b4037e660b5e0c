package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ProtocolOp.BindRequest;
import dev.ferry.ldap.ProtocolOp.BindResponse;
import java.io.IOException;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * One SASL bind (RFC 4513 section 5.2.1.2): bind requests carrying the client's responses until
 * the server stops answering saslBindInProgress, then the client checks the server's last
 * credentials (DIGEST-MD5's rspauth proves the server knew the password).
 */
final class SaslBind {
  /** More round trips than any mechanism needs; a server asking for more is misbehaving. */
  static final int MAX_STEPS = 16;

  /** Sends one bind request and returns its response. */
  @FunctionalInterface
  interface Step {
    BindResponse send(BindRequest request) throws IOException;
  }

  private SaslBind() {}

  static LdapResult run(SaslClient client, Step step) throws IOException {
    String mechanism = client.getMechanismName();
    ByteString credentials = client.hasInitialResponse()
        ? evaluate(client, ByteString.EMPTY) : null;
    for (int i = 0; i < MAX_STEPS; i++) {
      BindRequest request = new BindRequest(3, "", new ProtocolOp.Sasl(mechanism, credentials));
      BindResponse response = step.send(request);
      LdapResult result = response.result();
      ByteString challenge = response.serverSaslCredentials();
      if (result.resultCode().equals(ResultCode.SASL_BIND_IN_PROGRESS)) {
        if (client.isComplete()) {
          throw failure(mechanism + ": the server wants another step after the client finished");
        }
        credentials = evaluate(client, challenge == null ? ByteString.EMPTY : challenge);
        continue;
      }
      if (!result.resultCode().equals(ResultCode.SUCCESS)) {
        throw new LdapException(Operation.of(request), result);
      }
      finish(client, challenge);
      return result;
    }
    throw failure(mechanism + ": no result after " + MAX_STEPS + " steps");
  }

  private static void finish(SaslClient client, ByteString challenge) throws IOException {
    if (challenge != null && !client.isComplete()) {
      evaluate(client, challenge);
    }
    if (!client.isComplete()) {
      throw failure(client.getMechanismName()
          + ": the server reported success before the exchange was complete");
    }
    // A security layer would wrap every later PDU; this client does not, so it must not have
    // agreed to one (TLS is the way to protect the connection).
    Object qop = client.getNegotiatedProperty(Sasl.QOP);
    if (qop != null && !"auth".equals(qop)) {
      throw failure(client.getMechanismName() + ": negotiated a security layer (" + qop
          + "), which this client does not support; use TLS");
    }
  }

  private static ByteString evaluate(SaslClient client, ByteString challenge)
      throws IOException {
    try {
      byte[] response = client.evaluateChallenge(challenge.toByteArray());
      return response == null ? null : ByteString.of(response);
    } catch (SaslException e) {
      throw new LdapException(ResultCode.AUTH_METHOD_NOT_SUPPORTED,
          client.getMechanismName() + ": " + e.getMessage(), e);
    }
  }

  private static LdapException failure(String message) {
    return new LdapException(ResultCode.PROTOCOL_ERROR, message, null);
  }
}
