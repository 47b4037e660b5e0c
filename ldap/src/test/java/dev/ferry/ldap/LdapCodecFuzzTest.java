package dev.ferry.ldap;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerLimits;
import dev.ferry.bytes.ByteString;

/**
 * Fuzzes {@link LdapCodec#decode}: any input must decode or fail with a {@link BerException}
 * that has an offset; what decodes must re-encode to a PDU that decodes to the same message.
 *
 * <p>In a normal build this replays the committed corpus in
 * {@code src/test/resources/dev/ferry/ldap/LdapCodecFuzzTestInputs/decodesAnyPdu/}; see
 * docs/fuzzing.md for a real fuzzing run.
 */
class LdapCodecFuzzTest {
  private static final LdapLimits LIMITS = LdapLimits.builder()
      .ber(BerLimits.builder().maxPduBytes(1 << 16).maxElementBytes(1 << 15).build())
      .maxFilterDepth(20).build();

  @FuzzTest(maxDuration = "30s")
  void decodesAnyPdu(byte[] input) {
    LdapMessage m;
    try {
      m = LdapCodec.decode(ByteString.of(input), 0, LIMITS);
    } catch (BerException e) {
      if (e.byteOffset() < 0 || e.byteOffset() > input.length) {
        throw new AssertionError("offset out of range: " + e);
      }
      return;
    }
    ByteString again = LdapCodec.encode(m);
    try {
      LdapMessage back = LdapCodec.decode(again, 0, LdapLimits.DEFAULTS);
      if (!back.equals(m)) {
        throw new AssertionError("re-encoding changed the message: " + m + " -> " + back);
      }
    } catch (BerException e) {
      throw new AssertionError("our own encoding does not decode: " + again, e);
    }
  }
}
