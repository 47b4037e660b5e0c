package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.Objects;

/**
 * A request or response control (RFC 4511 section 4.1.11): an OID, a criticality, and an
 * optional value ({@code null} when absent, which differs from an empty value).
 */
public record Control(String oid, boolean critical, ByteString value) {
  /** The ManageDsaIT control's OID (RFC 3296). */
  public static final String MANAGE_DSA_IT = "2.16.840.1.113730.3.4.2";

  public Control {
    Objects.requireNonNull(oid, "oid");
  }

  /**
   * Returns the ManageDsaIT control (RFC 3296), critical and without a value: the server treats
   * referral objects as ordinary entries (to read, change or delete them) instead of answering
   * with a referral.
   */
  public static Control manageDsaIt() {
    return new Control(MANAGE_DSA_IT, true, null);
  }
}
