package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** decode(encode(m)) == m and encode(decode(b)) == b for every protocolOp and filter choice. */
class LdapCodecProperties {

  @Provide
  Arbitrary<LdapMessage> messages() {
    return LdapArbitraries.messages();
  }

  @Provide
  Arbitrary<Filter> filters() {
    return LdapArbitraries.filters();
  }

  @Property(tries = 2000)
  void everyMessageRoundTrips(@ForAll("messages") LdapMessage m) throws IOException {
    ByteString pdu = LdapCodec.encode(m);
    LdapMessage decoded = LdapCodec.decode(pdu);
    assertEquals(m, decoded);
    assertEquals(pdu, LdapCodec.encode(decoded));
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    LdapCodec.encode(m, stream);
    assertEquals(pdu, ByteString.of(stream.toByteArray()));
  }

  @Property(tries = 300)
  void reusedBuilderAndWriterGiveTheSameBytes(@ForAll("messages") LdapMessage a,
      @ForAll("messages") LdapMessage b) {
    ByteStringBuilder out = new ByteStringBuilder();
    BerWriter w = new BerWriter();
    LdapCodec.encode(a, out, w);
    int split = out.size();
    LdapCodec.encode(b, out, w);
    ByteString both = out.toByteString();
    assertEquals(LdapCodec.encode(a), both.subSequence(0, split));
    assertEquals(LdapCodec.encode(b), both.subSequence(split));
  }

  @Property(tries = 1000)
  void filtersRoundTripThroughTheirStringForm(@ForAll("filters") Filter f) {
    assertEquals(f, Filter.parse(f.toString()));
  }
}
