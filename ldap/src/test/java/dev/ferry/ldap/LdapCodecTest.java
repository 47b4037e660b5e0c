package dev.ferry.ldap;

import static dev.ferry.testkit.DecodeAssertions.assertFails;
import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static dev.ferry.testkit.DecodeAssertions.assertOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.ldap.ProtocolOp.BindRequest;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultDone;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

class LdapCodecTest {

  static Filter roundTripFilter(Filter f) {
    LdapMessage m = LdapMessage.of(1, SearchRequest.of("", SearchScope.BASE_OBJECT, f));
    try {
      return ((SearchRequest) LdapCodec.decode(LdapCodec.encode(m)).op()).filter();
    } catch (BerException e) {
      throw new AssertionError(e);
    }
  }

  static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
        .getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  private static ByteString hex(String s) {
    return ByteString.decodeHex(s);
  }

  @Test
  void encodesASimpleBindAsLdapsearchDoes() throws BerException {
    LdapMessage m = LdapMessage.of(1, BindRequest.simple("cn=admin", "secret"));
    ByteString pdu = hex("30 1a 02 01 01 60 15 02 01 03 04 08 63 6e 3d 61 64 6d 69 6e"
        + " 80 06 73 65 63 72 65 74");
    assertEquals(pdu, LdapCodec.encode(m));
    assertEquals(m, LdapCodec.decode(pdu));
  }

  @Test
  void decodesSearchResultDoneAndControls() throws BerException {
    ByteString pdu = hex("30 2c 02 01 02 65 07 0a 01 00 04 00 04 00"
        + " a0 1e 30 1c 04 16 31 2e 32 2e 38 34 30 2e 31 31 33 35 35 36 2e 31 2e 34 2e 33 31 39"
        + " 04 02 30 00");
    LdapMessage m = LdapCodec.decode(pdu);
    assertEquals(new SearchResultDone(LdapResult.of(ResultCode.SUCCESS)), m.op());
    assertEquals(PagedResults.OID, m.controls().get(0).oid());
    assertEquals(false, m.controls().get(0).critical());
  }

  @Test
  void decodedValuesAreSlicesOfThePdu() throws BerException {
    byte[] big = new byte[70_000];
    big[0] = 42;
    LdapMessage m = LdapMessage.of(3, new SearchResultEntry("cn=x",
        List.of(new Attribute("jpegPhoto", List.of(ByteString.of(big))))));
    ByteString pdu = LdapCodec.encode(m);
    SearchResultEntry e = (SearchResultEntry) LdapCodec.decode(pdu).op();
    ByteString value = e.attributes().get(0).values().get(0);
    assertEquals(pdu.subSequence(pdu.size() - big.length), value);
    long before = allocatedBytes();
    for (int i = 0; i < 10; i++) {
      LdapCodec.decode(pdu);
    }
    long perDecode = (allocatedBytes() - before) / 10;
    assertTrue(perDecode < 2_000, "decoding a 70 KB value allocated " + perDecode + " bytes");
  }

  @Test
  void reportsUnknownOperationWithContext() {
    BerException e = assertFails(BerException.class,
        () -> LdapCodec.decode(hex("30 05 02 01 09 4f 00")));
    assertOffset(5, e.byteOffset());
    assertMentions(e.reason(), "unknown protocolOp", "APPLICATION 15");
    assertEquals("message 9 > protocolOp 0x4f", e.context());
  }

  @Test
  void reportsNegativeMessageId() {
    BerException e = assertFails(BerException.class,
        () -> LdapCodec.decode(hex("30 05 02 01 ff 42 00")));
    assertOffset(2, e.byteOffset());
    assertMentions(e.reason(), "message ID -1");
  }

  @Test
  void reportsTrailingBytesAndIndefiniteLengths() {
    BerException trailing = assertFails(BerException.class,
        () -> LdapCodec.decode(hex("30 05 02 01 01 42 00 00")));
    assertOffset(7, trailing.byteOffset());
    assertMentions(trailing.reason(), "bytes after the LDAPMessage");
    BerException indefinite = assertFails(BerException.class,
        () -> LdapCodec.decode(hex("30 80 02 01 01 42 00 00 00")));
    assertOffset(1, indefinite.byteOffset());
    assertMentions(indefinite.reason(), "indefinite length");
  }

  @Test
  void reportsBadEnumerationsAtTheirOffset() {
    // searchRequest with scope 7
    ByteString pdu = hex("30 1b 02 01 01 63 16 04 00 0a 01 07 0a 01 00 02 01 00 02 01 00"
        + " 01 01 00 87 02 63 6e 30 00");
    BerException e = assertFails(BerException.class, () -> LdapCodec.decode(pdu));
    assertOffset(9, e.byteOffset());
    assertMentions(e.reason(), "scope 7 (expected: 0..3)");
    assertEquals("message 1 > searchRequest", e.context());
  }

  @Test
  void reportsMisorderedSubstrings() {
    LdapMessage m = LdapMessage.of(1, SearchRequest.of("", SearchScope.BASE_OBJECT,
        new Filter.Substrings("cn", null, List.of(), ByteString.encodeUtf8("z"))));
    ByteStringBuilder b = new ByteStringBuilder().append(LdapCodec.encode(m));
    int at = indexOf(b.toByteString(), (byte) 0x82);
    b.set(at, (byte) 0x80); // make it initial ...
    ByteString once = b.toByteString();
    assertEquals("z", ((Filter.Substrings) ((SearchRequest) decodeUnchecked(once).op()).filter())
        .initial().utf8());
    LdapMessage two = LdapMessage.of(1, SearchRequest.of("", SearchScope.BASE_OBJECT,
        new Filter.Substrings("cn", null, List.of(ByteString.encodeUtf8("a")),
            ByteString.encodeUtf8("z"))));
    ByteStringBuilder c = new ByteStringBuilder().append(LdapCodec.encode(two));
    int finalAt = indexOf(c.toByteString(), (byte) 0x82);
    c.set(finalAt, (byte) 0x80); // ... an initial after an any
    BerException e = assertFails(BerException.class, () -> LdapCodec.decode(c.toByteString()));
    assertOffset(finalAt, e.byteOffset());
    assertMentions(e.reason(), "substring out of order");
  }

  private static LdapMessage decodeUnchecked(ByteString pdu) {
    try {
      return LdapCodec.decode(pdu);
    } catch (BerException e) {
      throw new AssertionError(e);
    }
  }

  private static int indexOf(ByteString s, byte b) {
    return s.indexOf(b, 0);
  }

  private static ByteString nestedNotFilter(int depth) {
    Filter f = new Filter.Present("a");
    for (int i = 1; i < depth; i++) {
      f = new Filter.Not(f);
    }
    return LdapCodec.encode(LdapMessage.of(1, SearchRequest.of("", SearchScope.BASE_OBJECT, f)));
  }

  @Test
  void filterDepthAtLimitPassesAndOverLimitFails() throws BerException {
    LdapLimits limits = LdapLimits.builder().maxFilterDepth(3).build();
    LdapCodec.decode(nestedNotFilter(3), 0, limits);
    ByteString over = nestedNotFilter(4);
    BerException e = assertFails(BerException.class, () -> LdapCodec.decode(over, 0, limits));
    assertEquals("LdapLimits.maxFilterDepth", e.limitName());
    assertEquals(4, e.actualValue());
    assertOffset(indexOf(over, (byte) 0x87), e.byteOffset());
  }

  private static ByteString search(Filter f) {
    return LdapCodec.encode(LdapMessage.of(7, SearchRequest.of("", SearchScope.BASE_OBJECT, f)));
  }

  private static Filter substringOfParts(int parts, int partBytes) {
    List<ByteString> any = new java.util.ArrayList<>();
    for (int i = 0; i < parts - 1; i++) {
      any.add(ByteString.encodeUtf8("x".repeat(partBytes)));
    }
    return new Filter.Substrings("cn", ByteString.encodeUtf8("a".repeat(partBytes)), any, null);
  }

  private static Filter orOfWidth(int items) {
    List<Filter> items0 = new java.util.ArrayList<>();
    for (int i = 0; i < items; i++) {
      items0.add(Filter.equality("uid", "u" + i));
    }
    return new Filter.Or(items0);
  }

  /** A filter over a limit was framed whole: not fatal, the message and op in its context. */
  private static BerException assertFilterLimit(ByteString pdu, LdapLimits limits, String name,
      long actual) {
    BerException e = assertFails(BerException.class, () -> LdapCodec.decode(pdu, 0, limits));
    assertEquals(name, e.limitName());
    assertEquals(actual, e.actualValue());
    assertEquals(false, e.isFatal(), "a filter limit leaves the stream readable");
    assertMentions(e.getMessage(), "message 7 > searchRequest");
    return e;
  }

  @Test
  void substringPartsAtLimitPassAndOverLimitFail() throws BerException {
    LdapLimits limits = LdapLimits.builder().maxSubstringParts(4).build();
    LdapCodec.decode(search(substringOfParts(4, 3)), 0, limits);
    assertFilterLimit(search(substringOfParts(5, 3)), limits, "LdapLimits.maxSubstringParts", 5);
  }

  @Test
  void filterElementsAtLimitPassAndOverLimitFail() throws BerException {
    LdapLimits limits = LdapLimits.builder().maxFilterElements(10).build();
    LdapCodec.decode(search(orOfWidth(9)), 0, limits); // the or and nine items
    assertFilterLimit(search(orOfWidth(10)), limits, "LdapLimits.maxFilterElements", 11);
    assertFilterLimit(search(new Filter.Not(new Filter.Not(orOfWidth(8)))), limits,
        "LdapLimits.maxFilterElements", 11);
  }

  @Test
  void filterValueBytesAtLimitPassAndOverLimitFail() throws BerException {
    LdapLimits limits = LdapLimits.builder().maxFilterValueBytes(12).build();
    LdapCodec.decode(search(substringOfParts(4, 3)), 0, limits);
    assertFilterLimit(search(substringOfParts(3, 5)), limits, "LdapLimits.maxFilterValueBytes",
        15);
    Filter and = new Filter.And(List.of(Filter.equality("cn", "abcdefgh"),
        Filter.equality("sn", "abcde")));
    assertFilterLimit(search(and), limits, "LdapLimits.maxFilterValueBytes", 13);
  }

  @Test
  void eightyThousandSubstringPartsAreRefusedAfterTheLimitsWorth() throws BerException {
    // The request of the report: 80,000 parts in 240 KB. Refused at the 17th part: the
    // decode allocates tens of KB (the error and its stack trace among them), where 80,000
    // parts held as slices would take megabytes.
    ByteString pdu = search(substringOfParts(80_000, 1));
    assertTrue(pdu.size() > 240_000, pdu.size() + " bytes");
    for (int i = 0; i < 50; i++) { // warm up
      assertFails(BerException.class, () -> LdapCodec.decode(pdu, 0, LdapLimits.DEFAULTS));
    }
    long before = allocatedBytes();
    BerException e = assertFails(BerException.class,
        () -> LdapCodec.decode(pdu, 0, LdapLimits.DEFAULTS));
    long allocated = allocatedBytes() - before;
    assertEquals("LdapLimits.maxSubstringParts", e.limitName());
    assertTrue(allocated < 64 * 1024, allocated + " bytes allocated");
  }

  /** Appends a definite-length header, minimal, like the writer does. */
  private static void header(ByteStringBuilder b, int type, int length) {
    b.append((byte) type);
    if (length < 0x80) {
      b.append((byte) length);
    } else {
      int n = (39 - Integer.numberOfLeadingZeros(length)) / 8;
      b.append((byte) (0x80 | n));
      for (int i = n - 1; i >= 0; i--) {
        b.append((byte) (length >>> (8 * i)));
      }
    }
  }

  private static int headerBytes(int length) {
    return 1 + (length < 0x80 ? 1 : 1 + (39 - Integer.numberOfLeadingZeros(length)) / 8);
  }

  @Test
  void deepFilterFailsOnASmallStackWithoutRecursingFurther() throws Exception {
    // 10 000 nested nots, well formed: the filter limit (50) speaks before the BER one (64).
    int depth = 10_000;
    int[] content = new int[depth + 1]; // content[i]: content length of the i-th not from inside
    content[0] = 3; // 87 01 61 is the innermost filter, counted as the first not's content
    for (int i = 1; i <= depth; i++) {
      content[i] = content[i - 1] + (i == 1 ? 0 : headerBytes(content[i - 1]));
    }
    int filterBytes = content[depth] + headerBytes(content[depth]);
    ByteString fixed = hex("04 00 0a 01 00 0a 01 00 02 01 00 02 01 00 01 01 00");
    int searchContent = fixed.size() + filterBytes + 2;
    ByteStringBuilder b = new ByteStringBuilder();
    header(b, 0x30, 3 + headerBytes(searchContent) + searchContent);
    b.append(hex("02 01 01"));
    header(b, 0x63, searchContent);
    b.append(fixed);
    for (int i = depth; i >= 1; i--) {
      header(b, 0xa2, content[i]);
    }
    b.append(hex("87 01 61 30 00"));
    BerException[] seen = new BerException[1];
    Thread t = new Thread(null, () -> {
      try {
        LdapCodec.decode(b.toByteString());
      } catch (BerException e) {
        seen[0] = e;
      }
    }, "small-stack", 256 * 1024);
    t.start();
    t.join();
    assertEquals("LdapLimits.maxFilterDepth", seen[0].limitName(), String.valueOf(seen[0]));
    assertEquals(51, seen[0].actualValue());
  }

  @Test
  void oidAtLimitPassesAndOverLimitFails() throws BerException {
    LdapLimits limits = LdapLimits.builder().maxOidBytes(5).build();
    LdapCodec.decode(LdapCodec.encode(LdapMessage.of(1,
        new ProtocolOp.ExtendedRequest("1.2.3", null))), 0, limits);
    ByteString over = LdapCodec.encode(LdapMessage.of(1,
        new ProtocolOp.ExtendedRequest("1.2.34", null)));
    BerException e = assertFails(BerException.class, () -> LdapCodec.decode(over, 0, limits));
    assertEquals("LdapLimits.maxOidBytes", e.limitName());
    assertEquals(6, e.actualValue());
    assertOffset(7, e.byteOffset());
    assertEquals("message 1 > extendedReq", e.context());
  }

  @Test
  void hugeDeclaredOidIsRejectedBeforeReading() {
    // extendedReq whose name claims 2 GiB: BER rejects the length before anything is allocated.
    BerException e = assertFails(BerException.class,
        () -> LdapCodec.decode(hex("30 0c 02 01 01 77 07 80 84 7f ff ff ff 41")));
    assertEquals("BerLimits.maxElementBytes", e.limitName());
    assertOffset(8, e.byteOffset());
  }

  @Test
  void pagedResultsRoundTrip() throws BerException {
    PagedResults p = new PagedResults(50, ByteString.encodeUtf8("cookie"));
    assertEquals(p, PagedResults.from(p.toControl(true)));
    assertEquals("300b02013204066f6f6b6965".length() + 2,
        p.toControl(true).value().hex().length());
    BerException e = assertFails(BerException.class,
        () -> PagedResults.from(new Control(PagedResults.OID, false, hex("30 03 02 01"))));
    assertOffset(1, e.byteOffset());
    assertMentions(e.reason(), "truncated input");
  }
}
