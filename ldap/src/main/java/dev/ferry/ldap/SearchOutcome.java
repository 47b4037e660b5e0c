package dev.ferry.ldap;

import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ProtocolOp.SearchResultReference;
import java.util.List;
import java.util.Objects;

/**
 * A whole search: its entries, the continuation references it was not (or could not be)
 * followed through, and the final message. A search answered with a referral (result code
 * {@link ResultCode#REFERRAL}) has its URLs in {@code done().op().result().referrals()}.
 *
 * @param entries the entries, in the order they arrived (followed references' entries after)
 * @param references the continuation references left: every one when referrals are not
 *     followed, else those none of whose URLs could be reached
 * @param done the SearchResultDone message, with its controls
 */
public record SearchOutcome(List<SearchResultEntry> entries,
    List<SearchResultReference> references, LdapMessage done) {

  public SearchOutcome {
    entries = List.copyOf(entries);
    references = List.copyOf(references);
    Objects.requireNonNull(done, "done");
  }

  /** Returns the final result. */
  public LdapResult result() {
    return done.op().result();
  }

  /** Returns the referral URLs of the final result (empty unless it is a referral). */
  public List<String> referrals() {
    return result().referrals();
  }
}
