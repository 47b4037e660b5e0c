package dev.ferry.ldap;

import java.io.IOException;
import java.util.Objects;

/**
 * An LDAP operation did not succeed: the server returned a result code that is an error, or the
 * client gave up (codes {@link ResultCode#TIMEOUT} and {@link ResultCode#SERVER_DOWN}). Malformed
 * PDUs are {@link dev.ferry.asn1.BerException}s instead, with byte offsets.
 */
public final class LdapException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient LdapResult result;

  /** Creates the exception for a server's error result. */
  public LdapException(LdapResult result) {
    super(message(result));
    this.result = Objects.requireNonNull(result, "result");
  }

  /** Creates a client-side failure with {@code code}. */
  public LdapException(ResultCode code, String message, Throwable cause) {
    super(code.name() + ": " + message, cause);
    this.result = LdapResult.of(code, message);
  }

  private static String message(LdapResult r) {
    StringBuilder s = new StringBuilder(r.resultCode().toString());
    if (!r.diagnosticMessage().isEmpty()) {
      s.append(": ").append(r.diagnosticMessage());
    }
    if (!r.matchedDn().isEmpty()) {
      s.append(" (matched DN: ").append(r.matchedDn()).append(')');
    }
    return s.toString();
  }

  /** Returns the result code. */
  public ResultCode resultCode() {
    return result.resultCode();
  }

  /** Returns the whole result, with the matched DN, message and referrals. */
  public LdapResult result() {
    return result;
  }
}
