package dev.ferry.wssecurity.internal;

import java.util.Arrays;
import java.util.function.Function;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import org.apache.wss4j.common.ext.WSPasswordCallback;

/**
 * Answers WSS4J's password callbacks: the in-memory key store's password for a signing or
 * decryption key, the outgoing UsernameToken's password for its user, and an incoming one's
 * from the configured lookup (none for an unknown user, which fails authentication).
 */
public final class Passwords implements CallbackHandler {
  private final String user;
  private final char[] password;
  private final Function<String, char[]> lookup;

  /** {@code user}/{@code password} for outgoing tokens, {@code lookup} for incoming ones. */
  public Passwords(String user, char[] password, Function<String, char[]> lookup) {
    this.user = user;
    this.password = password;
    this.lookup = lookup;
  }

  @Override
  public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
    for (Callback c : callbacks) {
      if (!(c instanceof WSPasswordCallback pc)) {
        throw new UnsupportedCallbackException(c);
      }
      switch (pc.getUsage()) {
        case WSPasswordCallback.SIGNATURE, WSPasswordCallback.DECRYPT ->
            pc.setPassword(new String(Cryptos.STORE_PASSWORD));
        case WSPasswordCallback.USERNAME_TOKEN -> pc.setPassword(usernameTokenPassword(
            pc.getIdentifier()));
        default -> throw new UnsupportedCallbackException(c);
      }
    }
  }

  private String usernameTokenPassword(String name) {
    if (lookup != null) {
      char[] p = lookup.apply(name);
      if (p != null) {
        String s = new String(p);
        Arrays.fill(p, '\0');
        return s;
      }
      return null;
    }
    return name != null && name.equals(user) && password != null ? new String(password) : null;
  }
}
