package dev.ferry.asn1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DERSet;
import org.junit.jupiter.api.Test;

class BerWriterTest {

  @Test
  void writesNestedElementsWithMinimalLengths() throws IOException {
    ByteString big = ByteString.of(new byte[300]);
    BerEncoder enc = w -> {
      w.writeStartSequence();
      w.writeInteger(-1);
      w.writeStartSet(BerTags.type(BerTags.CONTEXT, true, 3));
      w.writeOctetString(big);
      w.writeEndSet();
      w.writeNull(BerTags.type(BerTags.APPLICATION, false, 2));
      w.writeEndSequence();
    };
    ByteString out = BerWriter.encode(enc);
    assertEquals("30820139" + "0201ff" + "a382013004820 12c".replace(" ", ""),
        out.subSequence(0, 15).hex());
    assertEquals("4200", out.subSequence(out.size() - 2).hex());
    assertEquals(4 + 3 + 4 + 4 + 300 + 2, out.size());
  }

  @Test
  void writesHighTagNumbers() throws IOException {
    ByteString out = BerWriter.encode(w -> {
      w.writeInteger(BerTags.type(BerTags.APPLICATION, false, 100), 42);
      w.writeBoolean(BerTags.type(BerTags.CONTEXT, false, 16383), true);
      w.writeNull(BerTags.type(BerTags.PRIVATE, false, 2_000_000));
    });
    assertEquals("5f64012a" + "9fff7f01ff" + "df fa 89 00 00".replace(" ", ""), out.hex());
  }

  @Test
  void streamOutputEqualsBuilderOutput() throws IOException {
    BerEncoder enc = w -> {
      w.writeStartSequence();
      for (int i = 0; i < 50; i++) {
        w.writeUtf8String(BerTags.OCTET_STRING, "välue " + i + " \uD83D\uDE00");
      }
      w.writeEndSequence();
    };
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    new BerWriter().encode(stream, enc);
    assertEquals(BerWriter.encode(enc), ByteString.of(stream.toByteArray()));
  }

  @Test
  void appendsToABuilderAndCanBeReused() throws IOException {
    BerWriter w = new BerWriter();
    ByteStringBuilder out = new ByteStringBuilder();
    w.encode(out, x -> x.writeInteger(1));
    w.encode(out, x -> x.writeInteger(2));
    assertEquals("020101020102", out.toByteString().hex());
  }

  @Test
  void detectsAnEncoderThatChangesBetweenPasses() {
    AtomicInteger calls = new AtomicInteger();
    assertThrows(IllegalStateException.class, () -> BerWriter.encode(w -> {
      w.writeStartSequence();
      if (calls.incrementAndGet() == 1) {
        w.writeInteger(1);
      }
      w.writeEndSequence();
    }));
  }

  @Test
  void theBuilderPathWritesLongLengthsEveryTypeAndNonAsciiAsTheStreamPath() throws IOException {
    for (int n : new int[] {0, 127, 128, 255, 256, 65_535, 65_536, 70_000}) {
      ByteString value = ByteString.of(new byte[n]);
      String ascii = "a".repeat(Math.min(n, 2000));
      BerEncoder enc = w -> {
        w.writeStartSequence();
        w.writeInteger(n);
        w.writeBoolean(true);
        w.writeNull();
        w.writeInteger(BerTags.INTEGER, java.math.BigInteger.TEN.pow(40));
        w.writeOctetString(value);
        w.writeOctetString(BerTags.type(BerTags.CONTEXT, false, 40), value.toByteArray(), 0, n);
        w.writeUtf8String(BerTags.OCTET_STRING, ascii);
        w.writeUtf8String("välue \uD83D\uDE00 " + n);
        w.writeStartSet(BerTags.type(BerTags.CONTEXT, true, 3));
        w.writeOctetString(new ByteStringBuilder().append(value.toByteArray()));
        w.writeEndSet();
        w.writeEndSequence();
      };
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      new BerWriter().encode(stream, enc);
      ByteStringBuilder out = new ByteStringBuilder(1);
      out.append((byte) 7);
      ByteString handedOut = out.toByteString();
      out.clear(); // the builder must move rather than overwrite the handed-out byte
      new BerWriter().encode(out, enc);
      assertEquals(ByteString.of(stream.toByteArray()), out.toByteString());
      assertEquals("07", handedOut.hex());
    }
  }

  @Test
  void aFailedEncodingLeavesTheBuilderAsItWas() throws IOException {
    AtomicInteger calls = new AtomicInteger();
    ByteStringBuilder out = new ByteStringBuilder();
    out.append((byte) 1);
    BerWriter w = new BerWriter();
    // writes more in the write pass than it measured, outside any sequence
    assertThrows(IllegalStateException.class, () -> w.encode(out, x -> {
      x.writeInteger(1);
      if (calls.incrementAndGet() == 2) {
        x.writeOctetString(ByteString.of(new byte[500]));
      }
    }));
    assertEquals("01", out.toByteString().hex());
    w.encode(out, x -> x.writeInteger(2)); // and the writer is still usable
    assertEquals("01020102", out.toByteString().hex());
  }

  @Test
  void derSortsSetOfByEncodingNotByValue() throws IOException {
    BerEncoder strings = w -> {
      w.writeStartSetOf();
      for (String s : new String[] {"b", "ab", "a"}) {
        w.writeOctetString(ByteString.encodeUtf8(s));
      }
      w.writeEndSet();
    };
    // "ab" sorts last: its length octet 02 is larger than the 01 of "a" and "b"
    assertEquals("310a" + "040161" + "040162" + "04026162",
        BerWriter.encode(BerRules.DER, strings).hex());
    assertEquals("310a" + "040162" + "04026162" + "040161", BerWriter.encode(strings).hex());
    assertEquals("3100", BerWriter.encode(BerRules.DER, w -> {
      w.writeStartSetOf();
      w.writeEndSet();
    }).hex());
  }

  @Test
  void derSortsNestedSetsOfInsideOut() throws IOException {
    ByteString out = BerWriter.encode(BerRules.DER, w -> {
      w.writeStartSetOf();
      w.writeStartSequence();
      w.writeStartSetOf();
      w.writeInteger(2);
      w.writeInteger(1);
      w.writeEndSet();
      w.writeEndSequence();
      w.writeInteger(9);
      w.writeEndSet();
      w.writeBoolean(true);
    });
    assertEquals("310d" + "020109" + "3008" + "3106" + "020101" + "020102" + "0101ff",
        out.hex());
  }

  @Test
  void derComparesWholeFirstOctetsAsX690SaysWhereBouncyCastleDoesNot() throws Exception {
    // SET OF CHOICE { a [0] SEQUENCE { INTEGER }, b [1] INTEGER }: 81 < a0 as octets
    ByteString ours = BerWriter.encode(BerRules.DER, w -> {
      w.writeStartSetOf();
      w.writeStartSequence(BerTags.type(BerTags.CONTEXT, true, 0));
      w.writeInteger(5);
      w.writeEndSequence();
      w.writeInteger(BerTags.type(BerTags.CONTEXT, false, 1), 7);
      w.writeEndSet();
    });
    assertEquals("3108" + "810107" + "a003020105", ours.hex());
    // Bouncy Castle orders such elements by tag with the constructed bit cleared ([0] < [1]),
    // the rule X.690 10.3 gives for SET, not the octet order 11.6 gives for SET OF.
    ASN1EncodableVector v = new ASN1EncodableVector();
    v.add(ASN1Primitive.fromByteArray(ByteString.decodeHex("810107").toByteArray()));
    v.add(ASN1Primitive.fromByteArray(ByteString.decodeHex("a003020105").toByteArray()));
    assertEquals("3108" + "a003020105" + "810107",
        ByteString.of(new DERSet(v).getEncoded(ASN1Encoding.DER)).hex());
  }

  @Test
  void rejectsUnbalancedSequences() {
    assertThrows(IllegalStateException.class, () -> BerWriter.encode(w -> w.writeStartSequence()));
    assertThrows(IllegalStateException.class, () -> BerWriter.encode(BerWriter::writeEndSequence));
    assertThrows(IllegalStateException.class, () -> new BerWriter().writeInteger(1));
  }
}
