package dev.ferry.ldap;

import java.util.List;
import java.util.Objects;

/**
 * One LDAPMessage (RFC 4511 section 4.1.1): a message ID, an operation and its controls.
 *
 * <pre>{@code
 * LdapMessage m = new LdapMessage(1, new ProtocolOp.DeleteRequest("cn=x,dc=example"), List.of());
 * assert LdapCodec.decode(LdapCodec.encode(m)).equals(m);
 * }</pre>
 */
public record LdapMessage(int messageId, ProtocolOp op, List<Control> controls) {
  /** Largest message ID: {@value} (RFC 4511 MessageID is 0..maxInt). */
  public static final int MAX_MESSAGE_ID = Integer.MAX_VALUE;

  public LdapMessage {
    if (messageId < 0) {
      throw new IllegalArgumentException("messageId < 0: " + messageId);
    }
    Objects.requireNonNull(op, "op");
    controls = List.copyOf(controls);
  }

  /** Returns a message without controls. */
  public static LdapMessage of(int messageId, ProtocolOp op) {
    return new LdapMessage(messageId, op, List.of());
  }
}
