package dev.ferry.asn1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.BerTree.Bool;
import dev.ferry.asn1.BerTree.Constructed;
import dev.ferry.asn1.BerTree.Int;
import dev.ferry.asn1.BerTree.Octets;
import dev.ferry.asn1.BerTree.Text;
import dev.ferry.bytes.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DERSet;

/**
 * DER SET OF (X.690 section 11.6): the writer's output holds the same elements, sorted by their
 * encodings, and equals Bouncy Castle's {@link DERSet}. The set sits between other elements in
 * a SEQUENCE, so the writer must also put its output back where it belongs.
 */
class DerSetOfProperties {
  private static final Comparator<ByteString> OCTET_ORDER = (a, b) ->
      Arrays.compareUnsigned(a.toByteArray(), b.toByteArray());
  private static final ByteString TRAILER = ByteString.encodeUtf8("end");

  @Provide
  Arbitrary<List<BerTree>> anyElements() {
    return element(2, true).list().ofMaxSize(12);
  }

  /**
   * Elements whose order Bouncy Castle sees as X.690 does: Bouncy Castle compares first octets
   * without the constructed bit, which differs from octet order only when a context-specific
   * constructed tag meets a primitive one (see BerWriterTest).
   */
  @Provide
  Arbitrary<List<BerTree>> bouncyCastleElements() {
    return element(2, false).list().ofMaxSize(12);
  }

  private Arbitrary<BerTree> element(int depth, boolean taggedConstructed) {
    Arbitrary<ByteString> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(200)
        .map(ByteString::of);
    Arbitrary<Integer> octetTypes = Arbitraries.of(BerTags.OCTET_STRING,
        BerTags.type(BerTags.CONTEXT, false, 0), BerTags.type(BerTags.CONTEXT, false, 1));
    Arbitrary<BerTree> leaf = Arbitraries.oneOf(
        Arbitraries.longs().map(v -> new Int(BigInteger.valueOf(v))),
        Arbitraries.integers().between(-300, 300).map(i -> new Int(BigInteger.valueOf(i))),
        octetTypes.flatMap(t -> bytes.map(b -> new Octets(t, b))),
        Arbitraries.strings().ofMaxLength(20).map(Text::new),
        Arbitraries.of(true, false).map(Bool::new));
    if (depth == 0) {
      return leaf;
    }
    List<Integer> types = new ArrayList<>(List.of(BerTags.SEQUENCE, BerTags.SET));
    if (taggedConstructed) {
      types.add(BerTags.type(BerTags.CONTEXT, true, 0));
    }
    Arbitrary<BerTree> constructed = Arbitraries.of(types).flatMap(t ->
        element(depth - 1, taggedConstructed).list().ofMaxSize(4)
            .map(children -> new Constructed(t, t != BerTags.SEQUENCE, children)));
    return Arbitraries.frequencyOf(Tuple.of(4, leaf), Tuple.of(1, constructed));
  }

  private static BerEncoder inSequence(List<BerTree> elements) {
    return w -> {
      w.writeStartSequence();
      w.writeInteger(7);
      w.writeStartSetOf();
      for (BerTree e : elements) {
        e.write(w);
      }
      w.writeEndSet();
      w.writeOctetString(TRAILER);
      w.writeEndSequence();
    };
  }

  /** Reads the set's elements back from {@link #inSequence}'s output, checking what is around. */
  private static List<ByteString> readSet(ByteString encoded, BerRules rules) throws IOException {
    BerReader r = BerReader.of(encoded, rules, BerLimits.DEFAULTS);
    r.readStartSequence();
    assertEquals(7, r.readInteger());
    r.readStartSet();
    List<ByteString> elements = new ArrayList<>();
    while (r.hasNextElement()) {
      elements.add(r.readRawElement());
    }
    r.readEndSet();
    assertEquals(TRAILER, r.readOctetString());
    r.readEndSequence();
    assertFalse(r.hasNextElement());
    return elements;
  }

  private static List<ByteString> eachAlone(List<BerTree> elements) throws IOException {
    List<ByteString> encodings = new ArrayList<>();
    for (BerTree e : elements) {
      encodings.add(BerWriter.encode(BerRules.DER, e::write));
    }
    return encodings;
  }

  @Property(tries = 300)
  void derSortsTheSameElements(@ForAll("anyElements") List<BerTree> elements)
      throws IOException {
    ByteString encoded = BerWriter.encode(BerRules.DER, inSequence(elements));
    List<ByteString> written = readSet(encoded, BerRules.DER);
    for (int i = 1; i < written.size(); i++) {
      assertTrue(OCTET_ORDER.compare(written.get(i - 1), written.get(i)) <= 0,
          "out of order at " + i);
    }
    List<ByteString> expected = eachAlone(elements);
    expected.sort(OCTET_ORDER);
    assertEquals(expected, written);
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    new BerWriter(BerRules.DER).encode(stream, inSequence(elements));
    assertEquals(encoded, ByteString.of(stream.toByteArray()));
  }

  @Property(tries = 100)
  void otherRulesKeepTheCallersOrder(@ForAll("anyElements") List<BerTree> elements)
      throws IOException {
    ByteString encoded = BerWriter.encode(BerRules.LDAP, inSequence(elements));
    List<ByteString> alone = new ArrayList<>();
    for (BerTree e : elements) {
      alone.add(BerWriter.encode(BerRules.LDAP, e::write));
    }
    assertEquals(alone, readSet(encoded, BerRules.LDAP));
  }

  @Property(tries = 300)
  void derEqualsBouncyCastle(@ForAll("bouncyCastleElements") List<BerTree> elements)
      throws IOException {
    ASN1EncodableVector vector = new ASN1EncodableVector();
    for (ByteString e : eachAlone(elements)) {
      vector.add(ASN1Primitive.fromByteArray(e.toByteArray()));
    }
    byte[] bouncyCastle = new DERSet(vector).getEncoded(ASN1Encoding.DER);
    ByteString ours = BerWriter.encode(BerRules.DER, w -> {
      w.writeStartSetOf();
      for (BerTree e : elements) {
        e.write(w);
      }
      w.writeEndSet();
    });
    assertEquals(ByteString.of(bouncyCastle).hex(), ours.hex());
  }
}
