package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerStrings;
import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The entry fast path agrees with the element-by-element codec: same bytes out, same message in,
 * and on damaged input it either decodes what the general decoder decodes or leaves it alone.
 */
class EntryCodecProperties {
  private static final BerStrings STRINGS = new BerStrings();

  @Provide
  Arbitrary<LdapMessage> entries() {
    Arbitrary<ByteString> values = Arbitraries.oneOf(LdapArbitraries.bytes(),
        Arbitraries.integers().between(100, 70_000).map(EntryCodecTest::bytes));
    Arbitrary<Attribute> attribute = Combinators.combine(LdapArbitraries.descriptions(),
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(8, values.list().ofMinSize(1).ofMaxSize(1)),
            net.jqwik.api.Tuple.of(2, values.list().ofMaxSize(5))))
        .as(Attribute::new);
    Arbitrary<List<Attribute>> list = attribute.list().ofMaxSize(40);
    Arbitrary<ProtocolOp> op = Arbitraries.oneOf(
        Combinators.combine(LdapArbitraries.text(), list).as(ProtocolOp.SearchResultEntry::new),
        Combinators.combine(LdapArbitraries.text(), list).as(ProtocolOp.AddRequest::new));
    return Combinators.combine(Arbitraries.integers().greaterOrEqual(0), op)
        .as(LdapMessage::of);
  }

  @Property(tries = 500)
  void fastAndElementwiseAgree(@ForAll("entries") LdapMessage m) throws IOException {
    ByteString pdu = EntryCodecTest.elementwise(m);
    assertEquals(pdu, EntryCodecTest.fast(m));
    assertEquals(m, EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS));
    assertEquals(m, MessageDecoder.decodeElementwise(pdu, 0, LdapLimits.DEFAULTS));
  }

  @Property(tries = 3000)
  void onDamagedInputTheFastDecoderNeverDisagrees(@ForAll("small") LdapMessage m,
      @ForAll @IntRange(min = 0, max = 10_000) int where,
      @ForAll @IntRange(min = 0, max = 255) int what,
      @ForAll @IntRange(min = 0, max = 3) int how) {
    byte[] b = LdapCodec.encode(m).toByteArray();
    int i = where % b.length;
    byte[] damaged;
    switch (how) {
      case 0 -> { // overwrite one byte
        damaged = b.clone();
        damaged[i] = (byte) what;
      }
      case 1 -> { // cut
        damaged = java.util.Arrays.copyOf(b, i);
      }
      case 2 -> { // insert one byte
        damaged = new byte[b.length + 1];
        System.arraycopy(b, 0, damaged, 0, i);
        damaged[i] = (byte) what;
        System.arraycopy(b, i, damaged, i + 1, b.length - i);
      }
      default -> { // flip a bit of a length or tag octet near the front
        damaged = b.clone();
        damaged[i % Math.min(b.length, 24)] ^= (byte) (1 << (what & 7));
      }
    }
    ByteString pdu = ByteString.of(damaged);
    LdapMessage fast = EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS);
    LdapMessage general;
    try {
      general = MessageDecoder.decodeElementwise(pdu, 0, LdapLimits.DEFAULTS);
    } catch (BerException e) {
      assertNull(fast, "the fast path decoded what the general one rejects: " + e);
      return;
    }
    if (fast != null) {
      assertEquals(general, fast);
    }
  }

  @Provide
  Arbitrary<LdapMessage> small() {
    Arbitrary<Attribute> attribute = Combinators.combine(LdapArbitraries.descriptions(),
        LdapArbitraries.bytes().list().ofMaxSize(3)).as(Attribute::new);
    return Combinators.combine(Arbitraries.integers().between(0, 100_000),
        LdapArbitraries.text(), attribute.list().ofMaxSize(4))
        .as((id, dn, attrs) -> LdapMessage.of(id, new ProtocolOp.SearchResultEntry(dn, attrs)));
  }
}
