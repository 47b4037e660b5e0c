package dev.ferry.ldap;

import dev.ferry.ldap.ProtocolOp.AddRequest;
import dev.ferry.ldap.ProtocolOp.CompareRequest;
import dev.ferry.ldap.ProtocolOp.DeleteRequest;
import dev.ferry.ldap.ProtocolOp.ModifyDnRequest;
import dev.ferry.ldap.ProtocolOp.ModifyRequest;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import java.io.IOException;
import java.util.List;

/**
 * Following referrals (RFC 4511 section 4.1.10 and 4.5.3): each URL names the same target, so
 * the first one that can be reached is used, on a new connection with the same options. The
 * operation is sent again with the DN, and for searches the scope and filter, the URL carries.
 */
final class Referrals {

  /** What to do on the connection a referral leads to. */
  @FunctionalInterface
  interface Hop<T> {
    T run(LdapConnection connection, LdapUrl url) throws IOException;
  }

  private Referrals() {}

  /**
   * Runs {@code hop} on the first of {@code urls} that can be reached and authenticated. The
   * result is whatever the hop returns or throws; an {@link LdapException} with
   * {@link ResultCode#CONNECT_ERROR} if no URL could be used (the cause says why the last one
   * failed), or an {@link LdapException} with {@link ResultCode#REFERRAL_LIMIT_EXCEEDED} if this
   * would be hop number {@code hops + 1} beyond the limit.
   */
  static <T> T follow(LdapOptions options, List<String> urls, int hops, Hop<T> hop)
      throws IOException {
    int limit = options.limits().maxReferralHops();
    if (hops >= limit) {
      throw new LdapException(ResultCode.REFERRAL_LIMIT_EXCEEDED,
          "LdapLimits.maxReferralHops exceeded: " + (hops + 1) + " > " + limit + " at " + urls,
          null);
    }
    IOException last = null;
    for (String text : urls) {
      LdapUrl url;
      LdapConnection connection;
      try {
        url = LdapUrl.parse(text);
        connection = LdapConnection.open(url, options);
      } catch (IOException | IllegalArgumentException e) {
        last = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        continue;
      }
      try (connection) {
        options.referralAuthenticator().authenticate(connection);
        return hop.run(connection, url);
      }
    }
    throw new LdapException(ResultCode.CONNECT_ERROR, "no referral URL could be reached: "
        + urls, last);
  }

  /** Returns {@code op} aimed at the URL's DN (if it has one). */
  static ProtocolOp retarget(ProtocolOp op, LdapUrl url) {
    String dn = url.dn();
    if (dn.isEmpty()) {
      return op;
    }
    return switch (op) {
      case AddRequest r -> new AddRequest(dn, r.attributes());
      case ModifyRequest r -> new ModifyRequest(dn, r.changes());
      case DeleteRequest r -> new DeleteRequest(dn);
      case ModifyDnRequest r -> new ModifyDnRequest(dn, r.newRdn(), r.deleteOldRdn(),
          r.newSuperior());
      case CompareRequest r -> new CompareRequest(dn, r.attributeDescription(),
          r.assertionValue());
      default -> throw new IllegalArgumentException("not followed: " + op);
    };
  }

  /** Returns the search as the URL asks for it: its DN, scope and filter where present. */
  static SearchRequest retarget(SearchRequest r, LdapUrl url) throws LdapException {
    Filter filter = r.filter();
    if (url.filter() != null) {
      try {
        filter = Filter.parse(url.filter());
      } catch (IllegalArgumentException e) {
        // the server sent it: a protocol problem, not a mistake of the caller's
        throw new LdapException(ResultCode.PROTOCOL_ERROR, "bad filter in referral "
            + url.serverPart() + ": " + e.getMessage(), e);
      }
    }
    return new SearchRequest(url.dn().isEmpty() ? r.baseObject() : url.dn(),
        url.scope() == null ? r.scope() : url.scope(), r.derefAliases(), r.sizeLimit(),
        r.timeLimit(), r.typesOnly(), filter, r.attributes());
  }
}
