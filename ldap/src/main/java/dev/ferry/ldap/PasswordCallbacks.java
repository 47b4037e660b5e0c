package dev.ferry.ldap;

import java.util.Arrays;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.RealmChoiceCallback;

/** Answers a SASL password mechanism's questions: a name, a password, the server's realm. */
final class PasswordCallbacks implements CallbackHandler {
  private final String authenticationId;
  private final char[] password;

  PasswordCallbacks(String authenticationId, char[] password) {
    this.authenticationId = authenticationId;
    this.password = password.clone();
  }

  @Override
  public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
    for (Callback c : callbacks) {
      switch (c) {
        case NameCallback name -> name.setName(authenticationId);
        case PasswordCallback pw -> pw.setPassword(password);
        // the realm the server offered: a user name is looked up in the server's own realm
        case RealmCallback realm -> realm.setText(realm.getDefaultText());
        case RealmChoiceCallback choice -> choice.setSelectedIndex(choice.getDefaultChoice());
        default -> throw new UnsupportedCallbackException(c);
      }
    }
  }

  /** Forgets the password copy. */
  void clear() {
    Arrays.fill(password, '\0');
  }
}
