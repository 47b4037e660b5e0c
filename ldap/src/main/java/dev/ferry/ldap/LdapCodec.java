package dev.ferry.ldap;

import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Encodes and decodes whole LDAPMessage PDUs (RFC 4511 section 4 and 5.1).
 *
 * <p>Encoding writes each value once into the output (see {@link BerWriter}). Decoding reads
 * under {@link dev.ferry.asn1.BerRules#LDAP} (definite lengths, primitive strings) and returns
 * attribute values, credentials and control values as slices of {@code pdu}: they stay valid as
 * long as the caller keeps them, and share the PDU's array. A PDU in an array of the caller's is
 * decoded without a copy by handing the array over, {@code decode(ByteString.takeOwnership(pdu))},
 * after which the caller must not write to it; {@code ByteString.of(pdu)} copies it instead.
 *
 * <p>Entries, the bulk of LDAP traffic, take a shorter path: a SearchResultEntry or AddRequest
 * without controls is encoded from lengths computed on the model straight into the builder's
 * array, and decoded straight from the PDU's array when it has the plain shape; anything else,
 * and every malformed PDU, goes through the element-by-element codec, with the same bytes, the
 * same messages and the same errors.
 *
 * <pre>{@code
 * LdapMessage m = LdapMessage.of(7, new ProtocolOp.DeleteRequest("cn=x"));
 * ByteString pdu = LdapCodec.encode(m);
 * assert pdu.hex().equals("300a0201074a04636e3d78");
 * assert LdapCodec.decode(pdu).equals(m);
 * }</pre>
 */
public final class LdapCodec {
  private LdapCodec() {}

  /** Returns the PDU of {@code message}. */
  public static ByteString encode(LdapMessage message) {
    Objects.requireNonNull(message, "message");
    ByteStringBuilder out = new ByteStringBuilder();
    if (!EntryCodec.encode(message, out)) {
      encode(message, out, new BerWriter());
    }
    return out.toByteString();
  }

  /**
   * Appends the PDU of {@code message} to {@code out} using {@code writer} (reuse both to encode
   * without allocating once they have grown).
   */
  public static void encode(LdapMessage message, ByteStringBuilder out, BerWriter writer) {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(writer, "writer");
    // The entry fast path keeps the order of values; a DER writer sorts them (X.690 11.6).
    if (writer.rules() != BerRules.DER && EntryCodec.encode(message, out)) {
      return;
    }
    try {
      writer.encode(out, w -> MessageEncoder.message(w, message));
    } catch (IOException e) {
      throw new UncheckedIOException("a builder does not throw", e);
    }
  }

  /** Writes the PDU of {@code message} to {@code out}. */
  public static void encode(LdapMessage message, OutputStream out) throws IOException {
    Objects.requireNonNull(message, "message");
    new BerWriter().encode(out, w -> MessageEncoder.message(w, message));
  }

  /** Decodes one PDU with the default limits. */
  public static LdapMessage decode(ByteString pdu) throws BerException {
    return decode(pdu, 0, LdapLimits.DEFAULTS);
  }

  /**
   * Decodes one PDU that starts at absolute offset {@code baseOffset} of its stream (offsets in
   * errors are reported from there).
   *
   * @throws BerException if the PDU is malformed, is not exactly one LDAPMessage, or exceeds a
   *     limit; its context names the message ID and operation when known
   */
  public static LdapMessage decode(ByteString pdu, long baseOffset, LdapLimits limits)
      throws BerException {
    return MessageDecoder.decode(pdu, baseOffset, limits);
  }
}
