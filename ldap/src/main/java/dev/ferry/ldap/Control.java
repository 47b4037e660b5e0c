package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.Objects;

/**
 * A request or response control (RFC 4511 section 4.1.11): an OID, a criticality, and an
 * optional value ({@code null} when absent, which differs from an empty value).
 */
public record Control(String oid, boolean critical, ByteString value) {

  public Control {
    Objects.requireNonNull(oid, "oid");
  }
}
