package dev.ferry.ldap;

import java.io.IOException;
import java.util.Objects;

/**
 * An LDAP operation did not succeed: the server returned a result code that is an error, or the
 * client gave up (codes {@link ResultCode#TIMEOUT} and {@link ResultCode#SERVER_DOWN}). Malformed
 * PDUs are {@link dev.ferry.asn1.BerException}s instead, with byte offsets.
 *
 * <p>An exception from {@link LdapConnection} names the operation and the DN it targeted, then
 * the result code and, as the server sent them, the matched DN and the diagnostic message:
 *
 * <pre>
 * delete "uid=x,ou=people,dc=example,dc=com": noSuchObject (32),
 *     matched DN "ou=people,dc=example,dc=com", server message "no such entry"
 * </pre>
 */
public final class LdapException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient LdapResult result;
  private final String operation;
  private final String dn;

  /** Creates the exception for a server's error result. */
  public LdapException(LdapResult result) {
    this((Operation) null, result);
  }

  /** Creates a client-side failure with {@code code}. */
  public LdapException(ResultCode code, String message, Throwable cause) {
    this(null, code, message, cause);
  }

  /** The server's error result to {@code op} (null: not tied to one operation). */
  LdapException(Operation op, LdapResult result) {
    super(prefix(op) + serverMessage(result));
    this.result = Objects.requireNonNull(result, "result");
    this.operation = op == null ? "" : op.name();
    this.dn = op == null ? null : op.dn();
  }

  /** A client-side failure of {@code op} (null: not tied to one operation) with {@code code}. */
  LdapException(Operation op, ResultCode code, String message, Throwable cause) {
    super(prefix(op) + code.name() + ": " + message, cause);
    this.result = LdapResult.of(code, message);
    this.operation = op == null ? "" : op.name();
    this.dn = op == null ? null : op.dn();
  }

  private static String prefix(Operation op) {
    return op == null ? "" : op + ": ";
  }

  private static String serverMessage(LdapResult r) {
    StringBuilder s = new StringBuilder(r.resultCode().toString());
    if (!r.matchedDn().isEmpty()) {
      s.append(", matched DN \"").append(r.matchedDn()).append('"');
    }
    if (!r.diagnosticMessage().isEmpty()) {
      s.append(", server message \"").append(r.diagnosticMessage()).append('"');
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

  /**
   * Returns the operation that failed, such as {@code delete}, {@code search},
   * {@code SASL bind DIGEST-MD5} or {@code extended operation 1.3.6.1.4.1.4203.1.11.3}, or the
   * empty string if this exception was not raised for one operation.
   */
  public String operation() {
    return operation;
  }

  /**
   * Returns the DN the failed operation targeted (the entry, the search base or the bind name),
   * or null if it targets none.
   */
  public String dn() {
    return dn;
  }
}
