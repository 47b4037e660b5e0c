package dev.ferry.ldap;

import java.util.List;
import java.util.Objects;

/**
 * The result carried by every response (RFC 4511 section 4.1.9): a code, the matched DN, a
 * diagnostic message and, for {@link ResultCode#REFERRAL}, the referral URIs.
 */
public record LdapResult(ResultCode resultCode, String matchedDn, String diagnosticMessage,
    List<String> referrals) {

  public LdapResult {
    Objects.requireNonNull(resultCode, "resultCode");
    Objects.requireNonNull(matchedDn, "matchedDn");
    Objects.requireNonNull(diagnosticMessage, "diagnosticMessage");
    referrals = List.copyOf(referrals);
  }

  /** Returns a result with no matched DN, no message and no referrals. */
  public static LdapResult of(ResultCode code) {
    return new LdapResult(code, "", "", List.of());
  }

  /** Returns a result with a diagnostic message. */
  public static LdapResult of(ResultCode code, String diagnosticMessage) {
    return new LdapResult(code, "", diagnosticMessage, List.of());
  }
}
