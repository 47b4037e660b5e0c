package dev.ferry.security;

import java.security.GeneralSecurityException;

/**
 * A caller that could not be authenticated: no credentials, a wrong user or password, or no
 * certificate. The message says which, never the password.
 */
public final class AuthenticationException extends GeneralSecurityException {
  private static final long serialVersionUID = 1L;

  public AuthenticationException(String message) {
    super(message);
  }
}
