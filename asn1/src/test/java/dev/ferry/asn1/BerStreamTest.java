package dev.ferry.asn1;

import static dev.ferry.testkit.DecodeAssertions.assertFails;
import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static dev.ferry.testkit.DecodeAssertions.assertOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ferry.bytes.ByteString;
import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.ThrottledInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The stream facade gives the same elements and offsets however the bytes arrive. */
class BerStreamTest {
  private static final byte[] INPUT = ByteString.decodeHex(
      "30 0b 02 01 05 31 06 04 01 41 01 01 ff"
          + " 30 80 04 02 42 43 24 80 04 01 44 00 00 00 00"
          + " 5f 64 01 2a").toByteArray();

  static Stream<Chunking> chunkings() {
    List<Chunking> all = new ArrayList<>(Chunking.standard());
    all.addAll(Chunking.everySplit(INPUT.length));
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("chunkings")
  void readsTheSameWhateverTheChunking(Chunking chunking) throws IOException {
    BerReader r = BerReader.of(new ThrottledInputStream(INPUT, chunking), BerRules.BER,
        BerLimits.DEFAULTS);
    r.readStartSequence();
    assertEquals(5, r.readInteger());
    r.readStartSet();
    assertEquals("A", r.readOctetString().utf8());
    assertEquals(true, r.readBoolean());
    r.readEndSet();
    r.readEndSequence();
    assertEquals(13, r.byteOffset());
    r.readStartSequence();
    assertEquals("BC", r.readOctetString().utf8());
    assertEquals("D", r.readOctetString().utf8());
    r.readEndSequence();
    assertEquals(42, r.readInteger(BerTags.type(BerTags.APPLICATION, false, 100)));
    assertFalse(r.hasNextElement());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("chunkings")
  void reportsTruncationAtTheStreamOffset(Chunking chunking) throws IOException {
    byte[] cut = java.util.Arrays.copyOf(INPUT, 20);
    BerReader r = BerReader.of(new ThrottledInputStream(cut, chunking), BerRules.BER,
        BerLimits.DEFAULTS);
    r.skipElement();
    BerException e = assertFails(BerException.class, r::skipElement);
    assertOffset(20, e.byteOffset());
    assertMentions(e.reason(), "truncated input");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("chunkings")
  void framesRawElements(Chunking chunking) throws IOException {
    BerReader r = BerReader.of(new ThrottledInputStream(INPUT, chunking), BerRules.BER,
        BerLimits.DEFAULTS);
    List<String> raw = new ArrayList<>();
    while (r.hasNextElement()) {
      raw.add(r.readRawElement().hex());
    }
    assertEquals(List.of("300b020105310604014101 01ff".replace(" ", ""),
        "30800402424324800401440000 0000".replace(" ", ""), "5f64012a"), raw);
  }

  @org.junit.jupiter.api.Test
  void rejectsEndOfContentsWhereNoIndefiniteContentsEnd() throws IOException {
    for (BerRules rules : BerRules.values()) {
      BerReader r = BerReader.of(ByteString.decodeHex("02 01 05 00 00").asInputStream(), rules,
          BerLimits.DEFAULTS);
      assertEquals(5, r.readInteger());
      BerException e = assertFails(BerException.class, r::hasNextElement);
      assertOffset(3, e.byteOffset());
      assertMentions(e.reason(), "end-of-contents", "outside indefinite-length contents");
    }
    BerReader r = BerReader.of(ByteString.decodeHex("30 80 00 81 00 00 00").asInputStream(),
        BerRules.BER, BerLimits.DEFAULTS);
    BerException e = assertFails(BerException.class, r::skipElement);
    assertOffset(2, e.byteOffset());
    assertMentions(e.reason(), "[UNIVERSAL 0]");
  }
}
