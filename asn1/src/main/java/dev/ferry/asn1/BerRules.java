package dev.ferry.asn1;

/**
 * Which encodings a {@link BerReader} accepts. Under every rule set, integers must be minimal
 * (X.690 8.3.2 is a BER rule), the end-of-contents octets 00 00 may only end indefinite-length
 * contents, and bytes left unread in a constructed element must be well-formed elements to be
 * skipped. The {@link BerWriter} always writes DER-shaped
 * output (minimal lengths and integers, booleans as 0xFF), which every rule set accepts; a
 * writer made for {@link #DER} also sorts the elements of each SET OF (X.690 section 11.6).
 * The reader does not check SET OF order: it cannot tell a SET OF from a SET.
 */
public enum BerRules {
  /** X.690 BER: any definite length encoding, indefinite lengths, constructed strings. */
  BER,
  /**
   * BER as restricted by RFC 4511 section 5.1: definite lengths only and primitive strings only;
   * long-form lengths with leading zeros are still accepted, as BER allows them.
   */
  LDAP,
  /** X.690 DER: minimal lengths, booleans 0x00 or 0xFF, no unread bytes in any element. */
  DER;

  boolean allowsIndefiniteLength() {
    return this == BER;
  }

  boolean allowsConstructedStrings() {
    return this == BER;
  }

  boolean isDer() {
    return this == DER;
  }
}
