package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerLimits;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerStrings;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The entry fast path writes and reads exactly what the element-by-element codec does. */
class EntryCodecTest {
  private static final BerStrings STRINGS = new BerStrings();

  /** The PDU as {@link BerWriter} and {@link MessageEncoder} write it, without the fast path. */
  static ByteString elementwise(LdapMessage m) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LdapCodec.encode(m, out);
    return ByteString.of(out.toByteArray());
  }

  static ByteString fast(LdapMessage m) {
    ByteStringBuilder out = new ByteStringBuilder(4);
    assertTrue(EntryCodec.encode(m, out), "fast path taken");
    return out.toByteString();
  }

  /** Both paths encode alike, both decode alike, and the fast decoder takes the PDU. */
  static void assertSameBothWays(LdapMessage m) throws IOException {
    ByteString pdu = elementwise(m);
    assertEquals(pdu, fast(m));
    assertEquals(pdu, LdapCodec.encode(m));
    LdapMessage decoded = EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS);
    assertNotNull(decoded, "fast decode taken");
    assertEquals(m, decoded);
    assertEquals(MessageDecoder.decodeElementwise(pdu, 0, LdapLimits.DEFAULTS), decoded);
  }

  static LdapMessage entry(int id, String dn, Attribute... attributes) {
    return LdapMessage.of(id, new ProtocolOp.SearchResultEntry(dn, List.of(attributes)));
  }

  static ByteString bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return ByteString.of(b);
  }

  @Test
  void shortEntry() throws IOException {
    assertSameBothWays(entry(1, "cn=a", Attribute.of("cn", "a"), Attribute.of("sn", "b")));
  }

  @Test
  void noAttributesEmptyDnAndEmptyValues() throws IOException {
    assertSameBothWays(entry(0, ""));
    assertSameBothWays(entry(5, "", new Attribute("a", List.of()),
        new Attribute("b", List.of(ByteString.EMPTY)),
        new Attribute("c", List.of(ByteString.EMPTY, ByteString.EMPTY))));
  }

  @Test
  void messageIdsAtTheIntegerBoundaries() throws IOException {
    for (int id : new int[] {0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 8388607, 8388608,
        Integer.MAX_VALUE}) {
      assertSameBothWays(entry(id, "dc=x", Attribute.of("cn", "x")));
    }
  }

  @Test
  void longFormLengthsAtEveryBoundary() throws IOException {
    // Value, set, attribute, list, op and message lengths across 127/128, 255/256, 65535/65536.
    for (int n : new int[] {120, 123, 124, 125, 126, 127, 128, 129, 250, 251, 252, 253, 254, 255,
        256, 257, 65_520, 65_527, 65_530, 65_531, 65_535, 65_536, 65_537, 70_000, 1_048_576}) {
      assertSameBothWays(entry(3, "dc=example", new Attribute("jpegPhoto", List.of(bytes(n)))));
      assertSameBothWays(entry(3, "dc=example", Attribute.of("cn", "x"),
          new Attribute("jpegPhoto", List.of(bytes(n), bytes(3)))));
    }
  }

  @Test
  void manyAttributesAndValues() throws IOException {
    List<Attribute> attrs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      List<ByteString> values = new ArrayList<>();
      for (int j = 0; j < i % 7; j++) {
        values.add(bytes(j * 13));
      }
      attrs.add(new Attribute("attribute" + i + ";lang-en", values));
    }
    assertSameBothWays(LdapMessage.of(9, new ProtocolOp.SearchResultEntry("dc=x", attrs)));
    assertSameBothWays(LdapMessage.of(9, new ProtocolOp.AddRequest("dc=x", attrs)));
  }

  @Test
  void nonAsciiDnTakesTheFastPath() throws IOException {
    assertSameBothWays(entry(2, "cn=Ωmega 中文 \uD83D\uDE00,dc=example", Attribute.of("cn", "é")));
  }

  @Test
  void nonAsciiDescriptionFallsBackAndStaysCorrect() throws IOException {
    LdapMessage m = entry(2, "cn=x", Attribute.of("cnä", "v"), Attribute.of("description", "d"));
    assertFalse(EntryCodec.encode(m, new ByteStringBuilder()));
    ByteString pdu = LdapCodec.encode(m);
    assertEquals(elementwise(m), pdu);
    // the decoder's fast path takes non-ASCII descriptions (strict UTF-8 as the general path)
    assertEquals(m, EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS));
    assertEquals(m, LdapCodec.decode(pdu));
  }

  @Test
  void controlsAndOtherOperationsFallBack() throws IOException {
    LdapMessage withControl = new LdapMessage(4, new ProtocolOp.SearchResultEntry("cn=x",
        List.of(Attribute.of("cn", "x"))), List.of(new Control("1.2.3", true, null)));
    assertFalse(EntryCodec.encode(withControl, new ByteStringBuilder()));
    ByteString pdu = LdapCodec.encode(withControl);
    assertEquals(elementwise(withControl), pdu);
    assertNull(EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS));
    assertEquals(withControl, LdapCodec.decode(pdu));

    LdapMessage delete = LdapMessage.of(4, new ProtocolOp.DeleteRequest("cn=x"));
    assertFalse(EntryCodec.encode(delete, new ByteStringBuilder()));
    assertNull(EntryCodec.decode(LdapCodec.encode(delete), LdapLimits.DEFAULTS, STRINGS));
  }

  @Test
  void aDerWriterStillSortsValues() {
    LdapMessage m = entry(1, "cn=x", Attribute.of("cn", "b", "a"));
    ByteStringBuilder out = new ByteStringBuilder();
    LdapCodec.encode(m, out, new BerWriter(BerRules.DER));
    LdapMessage sorted = entry(1, "cn=x", Attribute.of("cn", "a", "b"));
    assertEquals(LdapCodec.encode(sorted), out.toByteString());
  }

  @Test
  void appendsAfterWhatTheBuilderHoldsAndAfterAHandOut() throws IOException {
    LdapMessage m = entry(7, "cn=x", Attribute.of("cn", "x"));
    ByteStringBuilder out = new ByteStringBuilder(2);
    out.append((byte) 0x55);
    ByteString handedOut = out.toByteString();
    LdapCodec.encode(m, out, new BerWriter());
    out.clear(); // the next append must not overwrite handed-out bytes
    LdapCodec.encode(m, out, new BerWriter());
    assertEquals(ByteString.of((byte) 0x55), handedOut);
    assertEquals(elementwise(m), out.toByteString());
  }

  @Test
  void nonMinimalLengthsAreReadByBothPaths() throws BerException {
    // 30 81 0e | 02 01 01 | 64 81 08 | 04 00 | 30 04 | 30 82 00 00 -> attribute of 0 bytes
    ByteString pdu = ByteString.decodeHex("30 0f 02 01 01 64 0a 04 00 30 06 30 84 00 00 00 00");
    // an empty attribute SEQUENCE is not an Attribute: the fast path leaves it to the general one
    assertNull(EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS));
    assertThrows(BerException.class, () -> LdapCodec.decode(pdu));

    ByteString ok = ByteString.decodeHex(
        "30 81 14 02 01 01 64 81 0e 04 00 30 82 00 08 30 06 04 01 61 31 81 00");
    LdapMessage m = EntryCodec.decode(ok, LdapLimits.DEFAULTS, STRINGS);
    assertEquals(entry(1, "", new Attribute("a", List.of())), m);
    assertEquals(MessageDecoder.decodeElementwise(ok, 0, LdapLimits.DEFAULTS), m);
  }

  @Test
  void whatTheFastDecoderLeavesFailsAsBefore() {
    ByteString pdu = LdapCodec.encode(entry(1, "cn=x", new Attribute("jpegPhoto",
        List.of(bytes(300)))));
    // trailing byte
    ByteString trailing = ByteString.of(concat(pdu.toByteArray(), new byte[] {0}));
    assertNull(EntryCodec.decode(trailing, LdapLimits.DEFAULTS, STRINGS));
    assertThrows(BerException.class, () -> LdapCodec.decode(trailing));
    // truncated
    ByteString truncated = pdu.subSequence(0, pdu.size() - 1);
    assertNull(EntryCodec.decode(truncated, LdapLimits.DEFAULTS, STRINGS));
    assertThrows(BerException.class, () -> LdapCodec.decode(truncated));
    // a value over the element limit: the limit's error, from the general path
    LdapLimits small = LdapLimits.builder()
        .ber(BerLimits.builder().maxElementBytes(299).build()).build();
    assertNull(EntryCodec.decode(pdu, small, STRINGS));
    BerException e = assertThrows(BerException.class, () -> LdapCodec.decode(pdu, 0, small));
    assertEquals("BerLimits.maxElementBytes", e.limitName());
    // too shallow a depth limit
    LdapLimits shallow = LdapLimits.builder()
        .ber(BerLimits.builder().maxDepth(4).build()).build();
    assertNull(EntryCodec.decode(pdu, shallow, STRINGS));
    assertThrows(BerException.class, () -> LdapCodec.decode(pdu, 0, shallow));
    // PDU limit
    LdapLimits tiny = LdapLimits.builder()
        .ber(BerLimits.builder().maxPduBytes(pdu.size() - 1).build()).build();
    assertNull(EntryCodec.decode(pdu, tiny, STRINGS));
    assertThrows(BerException.class, () -> LdapCodec.decode(pdu, 0, tiny));
    // malformed UTF-8 in the DN
    ByteString badDn = ByteString.decodeHex("30 0b 02 01 01 64 06 04 02 c3 28 30 00");
    assertNull(EntryCodec.decode(badDn, LdapLimits.DEFAULTS, STRINGS));
    assertThrows(BerException.class, () -> LdapCodec.decode(badDn));
  }

  @Test
  void neitherPathAcceptsWhatBerForbids() {
    // message ID 1 as 02 02 00 01: a redundant leading octet (X.690 8.3.2)
    ByteString paddedId = ByteString.decodeHex("30 0a 02 02 00 01 64 04 04 00 30 00");
    assertNull(EntryCodec.decode(paddedId, LdapLimits.DEFAULTS, STRINGS));
    BerException id = assertThrows(BerException.class, () -> LdapCodec.decode(paddedId));
    assertEquals(4, id.byteOffset());
    // end-of-contents octets where an attribute should be, inside definite-length contents
    ByteString eoc = ByteString.decodeHex("30 0b 02 01 01 64 06 04 00 30 02 00 00");
    assertNull(EntryCodec.decode(eoc, LdapLimits.DEFAULTS, STRINGS));
    BerException end = assertThrows(BerException.class, () -> LdapCodec.decode(eoc));
    assertEquals(11, end.byteOffset());
    // a stray byte after the values of an attribute: not an extension element, garbage
    ByteString stray = ByteString.decodeHex(
        "30 14 02 01 01 64 0f 04 00 30 0b 30 09 04 01 61 31 03 04 01 62 ff");
    assertNull(EntryCodec.decode(stray, LdapLimits.DEFAULTS, STRINGS));
    BerException garbage = assertThrows(BerException.class, () -> LdapCodec.decode(stray));
    assertEquals(22, garbage.byteOffset());
  }

  @Test
  void aLiteralReplacementCharacterIsLeftToTheStrictPath() throws BerException {
    LdapMessage m = entry(1, "cn=\uFFFD", Attribute.of("cn", "x"));
    ByteString pdu = LdapCodec.encode(m);
    assertNull(EntryCodec.decode(pdu, LdapLimits.DEFAULTS, STRINGS));
    assertEquals(m, LdapCodec.decode(pdu));
  }

  @Test
  void decodedValuesAreSlicesOfThePdu() throws BerException {
    ByteString pdu = LdapCodec.encode(entry(1, "cn=x", new Attribute("a", List.of(bytes(40)))));
    LdapMessage m = LdapCodec.decode(pdu);
    ByteString v = ((ProtocolOp.SearchResultEntry) m.op()).attributes().get(0).value(0);
    assertEquals(bytes(40), v);
    assertArrayEquals(bytes(40).toByteArray(), v.toByteArray());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = new byte[a.length + b.length];
    System.arraycopy(a, 0, c, 0, a.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
