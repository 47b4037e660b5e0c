package dev.ferry.ldap.server;

import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.ResultCode;
import java.util.List;

/**
 * An operation ends with a result other than success: the code, the diagnostic message the
 * client sees and, for noSuchObject, the matched DN. Thrown and caught inside the server; it
 * carries no stack trace, which a result does not need.
 */
final class OperationException extends Exception {
  private static final long serialVersionUID = 1L;

  final transient LdapResult result;

  OperationException(ResultCode code, String message) {
    this(code, message, "");
  }

  OperationException(ResultCode code, String message, String matchedDn) {
    super(code.name() + ": " + message, null, false, false);
    this.result = new LdapResult(code, matchedDn, message, List.of());
  }

  ResultCode code() {
    return result.resultCode();
  }
}
