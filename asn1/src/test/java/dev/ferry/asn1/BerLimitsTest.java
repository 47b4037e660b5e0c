package dev.ferry.asn1;

import static dev.ferry.testkit.DecodeAssertions.assertFails;
import static dev.ferry.testkit.DecodeAssertions.assertOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Each limit: passes at the limit, fails at limit + 1 naming it, allocates nothing far beyond. */
class BerLimitsTest {
  private static final BerLimits SMALL = BerLimits.builder().maxPduBytes(10)
      .maxElementBytes(5).maxDepth(3).build();

  private static BerReader mem(String hex) {
    return BerReader.of(ByteString.decodeHex(hex), BerRules.BER, SMALL);
  }

  private static BerReader stream(String hex) {
    return BerReader.of(ByteString.decodeHex(hex).asInputStream(), BerRules.BER, SMALL);
  }

  @Test
  void elementAtLimitPasses() throws IOException {
    assertEquals(5, mem("04 05 01 02 03 04 05").readOctetString().size());
    assertEquals(5, stream("04 05 01 02 03 04 05").readOctetString().size());
  }

  @Test
  void elementOverLimitFailsNamingIt() {
    for (BerReader r : new BerReader[] {mem("04 06 01 02 03 04 05 06"),
        stream("04 06 01 02 03 04 05 06")}) {
      BerException e = assertFails(BerException.class, r::readOctetString);
      assertEquals("BerLimits.maxElementBytes", e.limitName());
      assertEquals(6, e.actualValue());
      assertOffset(1, e.byteOffset());
    }
  }

  @Test
  void pduAtLimitPassesAndOverLimitFails() throws IOException {
    String atLimit = "30 08 04 02 01 02 04 02 03 04";
    BerReader ok = stream(atLimit);
    ok.readStartSequence();
    ok.readOctetString();
    ok.readOctetString();
    ok.readEndSequence();
    mem(atLimit).skipElement();
    String over = "30 09 04 02 01 02 04 03 03 04 05";
    for (BerReader r : new BerReader[] {mem(over), stream(over)}) {
      BerException e = assertFails(BerException.class, r::readStartSequence);
      assertEquals("BerLimits.maxPduBytes", e.limitName());
      assertEquals(11, e.actualValue());
      assertOffset(1, e.byteOffset());
    }
  }

  @Test
  void depthAtLimitPassesAndOverLimitFails() throws IOException {
    BerLimits deep = SMALL.toBuilder().maxPduBytes(100).build();
    BerReader.of(ByteString.decodeHex("30 04 30 02 30 00"), BerRules.BER, deep).skipElement();
    BerReader.of(ByteString.decodeHex("30 80 30 80 30 80 00 00 00 00 00 00").asInputStream(),
        BerRules.BER, deep).skipElement();
    BerReader mem = BerReader.of(ByteString.decodeHex("30 06 30 04 30 02 30 00"), BerRules.BER,
        deep);
    mem.readStartSequence();
    mem.readStartSequence();
    mem.readStartSequence();
    BerException e = assertFails(BerException.class, mem::readStartSequence);
    assertEquals("BerLimits.maxDepth", e.limitName());
    assertEquals(4, e.actualValue());
    assertOffset(6, e.byteOffset());
    BerReader stream = BerReader.of(ByteString.decodeHex(
        "30 80 30 80 30 80 30 80 00 00 00 00 00 00 00 00").asInputStream(), BerRules.BER, deep);
    BerException s = assertFails(BerException.class, stream::skipElement);
    assertEquals("BerLimits.maxDepth", s.limitName());
    assertEquals(4, s.actualValue());
  }

  @Test
  void deepNestingFailsOnASmallStackThread() throws Exception {
    ByteStringBuilder b = new ByteStringBuilder();
    for (int i = 0; i < 100_000; i++) {
      b.append((byte) 0x30).append((byte) 0x80);
    }
    Throwable[] seen = new Throwable[1];
    Thread t = new Thread(null, () -> {
      try {
        BerReader.of(b.toByteString()).skipElement();
      } catch (Throwable e) {
        seen[0] = e;
      }
    }, "small-stack", 128 * 1024);
    t.start();
    t.join();
    BerException e = (BerException) seen[0];
    assertEquals("BerLimits.maxDepth", e.limitName());
  }

  @Test
  void hugeDeclaredLengthReadsAndAllocatesNothingForTheValue() {
    // 4 GiB - 1 declared over a stream that never ends: the framer must fail after the header,
    // without reading a value byte (its buffer only grows as bytes arrive).
    int[] served = new int[1];
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        byte[] header = {0x04, (byte) 0x84, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        int i = served[0]++;
        return i < header.length ? header[i] & 0xff : 0x41;
      }
    };
    BerException e = assertThrows(BerException.class,
        () -> BerReader.of(endless, BerRules.BER, BerLimits.DEFAULTS).readOctetString());
    assertEquals("BerLimits.maxPduBytes", e.limitName());
    assertEquals(4294967295L + 6, e.actualValue());
    assertOffset(1, e.byteOffset());
    assertEquals(6, served[0], "bytes read from the stream");
    BerException m = assertThrows(BerException.class,
        () -> BerReader.of(ByteString.decodeHex("04 84 7f ff ff ff 41")).readOctetString());
    assertEquals("BerLimits.maxPduBytes", m.limitName());
  }

  @Test
  void builderRejectsValuesBelowOne() {
    assertThrows(IllegalArgumentException.class, () -> BerLimits.builder().maxDepth(0));
    assertEquals(SMALL.maxDepth(), SMALL.toBuilder().build().maxDepth());
  }

}
