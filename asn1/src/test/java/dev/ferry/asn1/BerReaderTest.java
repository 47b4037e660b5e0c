package dev.ferry.asn1;

import static dev.ferry.testkit.DecodeAssertions.assertFails;
import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static dev.ferry.testkit.DecodeAssertions.assertOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteSequenceReader;
import dev.ferry.bytes.ByteString;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BerReaderTest {

  static BerReader ber(String hex) {
    return BerReader.of(ByteString.decodeHex(hex));
  }

  static BerReader with(BerRules rules, String hex) {
    return BerReader.of(ByteString.decodeHex(hex), rules, BerLimits.DEFAULTS);
  }

  @Test
  void readsNestedSequenceAndSlicesOctetStrings() throws IOException {
    ByteString input = ByteString.decodeHex("30 0b 02 01 05 31 06 04 01 41 01 01 ff");
    BerReader r = BerReader.of(input);
    assertEquals(0x30, r.peekType());
    assertEquals(11, r.peekLength());
    r.readStartSequence();
    assertEquals(5, r.readInteger());
    r.readStartSet();
    ByteString a = r.readOctetString();
    assertEquals(ByteString.encodeUtf8("A"), a);
    assertTrue(r.readBoolean());
    assertFalse(r.hasNextElement());
    r.readEndSet();
    r.readEndSequence();
    assertFalse(r.hasNextElement());
    assertEquals(input.size(), r.byteOffset());
  }

  @Test
  void readsFromPositionOfSharedReaderAndReportsItsOffsets() throws IOException {
    ByteSequenceReader in = new ByteSequenceReader(ByteString.decodeHex("ff ff 02 01 07 02 00"),
        100);
    in.skip(2);
    BerReader r = BerReader.of(in, BerRules.BER, BerLimits.DEFAULTS);
    assertEquals(7, r.readInteger());
    BerException e = assertFails(BerException.class, r::readInteger);
    assertOffset(106, e.byteOffset());
    assertMentions(e.reason(), "integer of 0 bytes");
  }

  @Test
  void readsHighTagNumbersOfEveryClass() throws IOException {
    // [APPLICATION 100] primitive, [PRIVATE 31] constructed holding [CONTEXT 16383]
    BerReader r = ber("5f 64 01 2a  ff 1f 05 9f ff 7f 01 01");
    int app100 = BerTags.type(BerTags.APPLICATION, false, 100);
    assertEquals(app100, r.peekType());
    assertEquals(42, r.readInteger(app100));
    r.readStartSequence(BerTags.type(BerTags.PRIVATE, true, 31));
    assertEquals(1, r.readInteger(BerTags.type(BerTags.CONTEXT, false, 16383)));
    r.readEndSequence();
  }

  @Test
  void acceptsNonMinimalLengthsUnderBerAndLdap() throws IOException {
    assertEquals(1, with(BerRules.BER, "02 84 00 00 00 01 01").readInteger());
    assertEquals(1, with(BerRules.LDAP, "02 81 01 01").readInteger());
  }

  @Test
  void rejectsNonMinimalLengthInDer() {
    BerException e = assertFails(BerException.class,
        () -> with(BerRules.DER, "02 81 01 01").readInteger());
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "minimal encoding in DER");
  }

  @Test
  void rejectsFiveOctetLength() {
    BerException e = assertFails(BerException.class,
        () -> ber("30 85 01 00 00 00 00").readStartSequence());
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "expected: 1..4");
  }

  @Test
  void rejectsReservedLengthOctet() {
    BerException e = assertFails(BerException.class, () -> ber("04 ff").readOctetString());
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "reserved length octet");
  }

  @Test
  void readsIndefiniteLengthsUnderBer() throws IOException {
    BerReader r = ber("30 80 02 01 01 30 80 04 01 41 00 00 00 00 02 01 09");
    assertEquals(-1, r.peekLength());
    r.readStartSequence();
    assertEquals(1, r.readInteger());
    r.readStartSequence();
    assertEquals("A", r.readOctetString().utf8());
    assertFalse(r.hasNextElement());
    r.readEndSequence();
    assertFalse(r.hasNextElement());
    r.readEndSequence();
    assertEquals(9, r.readInteger());
  }

  @Test
  void skipsAndFramesIndefiniteElements() throws IOException {
    BerReader r = ber("30 80 30 80 00 00 04 00 00 00 02 01 09");
    assertEquals("308030800000040000 00".replace(" ", ""), r.readRawElement().hex());
    assertEquals(9, r.readInteger());
  }

  @Test
  void rejectsIndefiniteLengthUnderLdapAndDer() {
    for (BerRules rules : new BerRules[] {BerRules.LDAP, BerRules.DER}) {
      BerException e = assertFails(BerException.class,
          () -> with(rules, "30 80 00 00").readStartSequence());
      assertOffset(1, e.byteOffset());
      assertMentions(e.reason(), "indefinite length");
    }
  }

  @Test
  void rejectsIndefiniteLengthOfPrimitive() {
    BerException e = assertFails(BerException.class, () -> ber("04 80 00 00").readOctetString());
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "primitive");
  }

  @Test
  void rejectsMissingEndOfContents() throws IOException {
    BerReader r = ber("30 80 02 01 01");
    r.readStartSequence();
    r.readInteger();
    BerException e = assertFails(BerException.class, r::readEndSequence);
    assertOffset(5, e.byteOffset());
    assertMentions(e.reason(), "end-of-contents");
  }

  @Test
  void joinsConstructedOctetStringsUnderBerOnly() throws IOException {
    String hex = "24 80 04 02 41 42 04 01 43 00 00";
    assertEquals("ABC", ber(hex).readOctetString().utf8());
    BerException e = assertFails(BerException.class,
        () -> with(BerRules.LDAP, "24 03 04 01 41").readOctetString());
    assertOffset(0, e.byteOffset());
    assertMentions(e.reason(), "expected [UNIVERSAL 4]");
  }

  @Test
  void rejectsTruncatedValueBeforeAllocating() {
    BerException e = assertFails(BerException.class, () -> ber("04 82 10 00 41").readOctetString());
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "truncated input", "4096");
  }

  @Test
  void rejectsChildOverrunningItsParent() throws IOException {
    BerReader r = ber("30 03 04 05 41 41 41 41 41");
    r.readStartSequence();
    BerException e = assertFails(BerException.class, r::readOctetString);
    assertOffset(3, e.byteOffset());
    assertMentions(e.reason(), "overruns its enclosing element");
  }

  @Test
  void rejectsHeaderOverrunningItsParent() throws IOException {
    BerReader r = ber("30 02 04 82 01 00");
    r.readStartSequence();
    BerException e = assertFails(BerException.class, r::readOctetString);
    assertOffset(4, e.byteOffset());
    assertMentions(e.reason(), "header overruns");
  }

  @Test
  void rejectsWrongType() {
    BerException e = assertFails(BerException.class, () -> ber("04 01 01").readInteger());
    assertOffset(0, e.byteOffset());
    assertMentions(e.reason(), "expected [UNIVERSAL 2]", "found [UNIVERSAL 4]");
  }

  @Test
  void rejectsBadTags() {
    BerException zero = assertFails(BerException.class, () -> ber("1f 80 01 00").readNull());
    assertOffset(1, zero.byteOffset());
    assertMentions(zero.reason(), "leading zero octet");
    BerException small = assertFails(BerException.class, () -> ber("1f 05 00").peekType());
    assertOffset(0, small.byteOffset());
    assertMentions(small.reason(), "long form");
    BerException big = assertFails(BerException.class, () -> ber("1f 81 81 81 01 00").peekType());
    assertOffset(0, big.byteOffset());
    assertMentions(big.reason(), "expected: 1..3");
  }

  @Test
  void rejectsIntegersThatDoNotFit() {
    BerException e = assertFails(BerException.class,
        () -> ber("02 05 01 00 00 00 00").readInteger());
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "does not fit in int", "expected: 1..4");
    assertEquals(1L << 32, assertDoesNotThrowLong("02 05 01 00 00 00 00"));
  }

  private static long assertDoesNotThrowLong(String hex) {
    try {
      return ber(hex).readLong();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void rejectsRedundantIntegerOctetsUnderEveryRuleSet() {
    // X.690 8.3.2 is a BER rule, not only a DER one: 00 7f and ff 80 each have a shorter form.
    for (BerRules rules : BerRules.values()) {
      for (String hex : new String[] {"02 02 00 7f", "02 02 ff 80", "02 03 00 00 01"}) {
        BerException i = assertFails(BerException.class, () -> with(rules, hex).readInteger());
        assertOffset(2, i.byteOffset());
        assertMentions(i.reason(), "redundant leading octet", "X.690 8.3.2");
      }
      BerException big = assertFails(BerException.class,
          () -> with(rules, "02 02 00 01").readBigInteger());
      assertOffset(2, big.byteOffset());
      BerException enumerated = assertFails(BerException.class,
          () -> with(rules, "0a 02 ff ff").readEnumerated());
      assertOffset(2, enumerated.byteOffset());
    }
  }

  @Test
  void acceptsMinimalIntegersThatNeedALeadingOctet() throws IOException {
    for (BerRules rules : BerRules.values()) {
      assertEquals(128, with(rules, "02 02 00 80").readInteger());
      assertEquals(-129, with(rules, "02 02 ff 7f").readInteger());
      assertEquals(0, with(rules, "02 01 00").readInteger());
      assertEquals(-1, with(rules, "02 01 ff").readLong());
    }
  }

  @Test
  void rejectsEndOfContentsInDefiniteContents() throws IOException {
    // X.690 8.1.5: 00 00 ends indefinite-length contents and is nothing anywhere else.
    for (BerRules rules : BerRules.values()) {
      BerReader peek = with(rules, "30 05 02 01 05 00 00");
      peek.readStartSequence();
      assertEquals(5, peek.readInteger());
      assertTrue(peek.hasNextElement());
      BerException e = assertFails(BerException.class, peek::peekType);
      assertOffset(5, e.byteOffset());
      assertMentions(e.reason(), "end-of-contents", "outside indefinite-length contents");
      BerReader skip = with(rules, "30 05 02 01 05 00 00");
      skip.readStartSequence();
      skip.readInteger();
      BerException skipped = assertFails(BerException.class, skip::readEndSequence);
      assertOffset(5, skipped.byteOffset());
      BerException top = assertFails(BerException.class, () -> with(rules, "00 00").skipElement());
      assertOffset(0, top.byteOffset());
    }
  }

  @Test
  void rejectsOtherUsesOfTheEndOfContentsTag() throws IOException {
    // [UNIVERSAL 0] is reserved for end-of-contents: 00 01 xx and 20 00 are not elements.
    BerException length = assertFails(BerException.class, () -> ber("00 01 00").skipElement());
    assertOffset(0, length.byteOffset());
    assertMentions(length.reason(), "[UNIVERSAL 0]", "reserved for end-of-contents");
    BerException constructed = assertFails(BerException.class, () -> ber("20 00").skipElement());
    assertOffset(0, constructed.byteOffset());
    BerReader r = ber("30 80 00 81 00 00 00");
    r.readStartSequence();
    assertTrue(r.hasNextElement());
    BerException inIndefinite = assertFails(BerException.class, r::readEndSequence);
    assertOffset(2, inIndefinite.byteOffset());
  }

  @Test
  void endingASequenceRejectsLeftoverBytesThatAreNotElements() throws IOException {
    // A signature-like SEQUENCE { OCTET STRING } whose inner length is one short: the 43 left
    // over is no element, so ending the sequence must fail rather than skip it.
    for (BerRules rules : new BerRules[] {BerRules.BER, BerRules.LDAP}) {
      BerReader r = with(rules, "30 05 04 02 41 42 43");
      r.readStartSequence();
      assertEquals("AB", r.readOctetString().utf8());
      BerException e = assertFails(BerException.class, r::readEndSequence);
      assertOffset(7, e.byteOffset());
      assertMentions(e.reason(), "header octets");
      BerReader overrun = with(rules, "30 06 02 01 01 04 05 41  05 00");
      overrun.readStartSequence();
      overrun.readInteger();
      BerException claim = assertFails(BerException.class, overrun::readEndSequence);
      assertOffset(6, claim.byteOffset());
      assertMentions(claim.reason(), "overruns its enclosing element");
      // a leftover SEQUENCE is looked into: its own contents must be elements too
      BerReader nested = with(rules, "30 08 02 01 01 30 03 04 05 41");
      nested.readStartSequence();
      nested.readInteger();
      BerException inner = assertFails(BerException.class, nested::readEndSequence);
      assertOffset(8, inner.byteOffset());
      assertMentions(inner.reason(), "expected: 5 bytes of content, found: 1");
    }
  }

  @Test
  void derRejectsOddBooleans() {
    BerException b = assertFails(BerException.class,
        () -> with(BerRules.DER, "01 01 01").readBoolean());
    assertOffset(2, b.byteOffset());
    assertMentions(b.reason(), "0x01");
  }

  @Test
  void derRejectsTrailingBytesInSequenceWhileBerSkipsThem() throws IOException {
    BerReader lenient = ber("30 06 02 01 01 04 01 41 02 01 02");
    lenient.readStartSequence();
    assertEquals(1, lenient.readInteger());
    lenient.readEndSequence();
    assertEquals(2, lenient.readInteger());
    BerReader der = with(BerRules.DER, "30 06 02 01 01 04 01 41");
    der.readStartSequence();
    der.readInteger();
    BerException e = assertFails(BerException.class, der::readEndSequence);
    assertOffset(5, e.byteOffset());
    assertMentions(e.reason(), "3 unread bytes");
  }

  @Test
  void rejectsMalformedUtf8AtTheBadByte() {
    BerException e = assertFails(BerException.class,
        () -> ber("0c 04 41 42 c3 28").readUtf8String());
    assertOffset(4, e.byteOffset());
    assertMentions(e.reason(), "malformed UTF-8");
  }

  @Test
  void keepsLiteralReplacementCharacter() throws IOException {
    assertEquals("\uFFFD", ber("0c 03 ef bf bd").readUtf8String());
  }

  @Test
  void reportsEndOfInputWhenAnElementIsExpected() throws IOException {
    BerReader r = ber("30 00");
    r.readStartSequence();
    BerException e = assertFails(BerException.class, r::readInteger);
    assertOffset(2, e.byteOffset());
    assertMentions(e.reason(), "no more elements");
  }
}
