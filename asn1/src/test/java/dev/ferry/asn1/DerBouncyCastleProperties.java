package dev.ferry.asn1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.asn1.FaultyBer.Fault;
import dev.ferry.asn1.FaultyBer.Sample;
import java.io.IOException;
import java.util.Arrays;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Primitive;

/**
 * Ferry's DER rules against Bouncy Castle on the same hostile and valid encodings. Bouncy
 * Castle's {@code ASN1InputStream} parses BER; an input is DER to it when it parses as one
 * object with nothing after it and re-encodes in DER to the same bytes. Ferry's verdict is its
 * DER reader reading the whole tree. Every disagreement is either a bug or one of the choices
 * docs/limits.md documents, which this test names and checks in their direction:
 * <ul>
 *   <li>{@link Fault#UNSORTED_SET_OF}: the reader cannot tell a SET OF from a SET, so it does not
 *       check order; Bouncy Castle sorts every SET it re-encodes and so refuses the input;</li>
 *   <li>{@link Fault#TOO_DEEP}: nesting past {@link BerLimits#DEFAULT_MAX_DEPTH} is a limit for
 *       Ferry; Bouncy Castle's parser has none.</li>
 * </ul>
 */
class DerBouncyCastleProperties {

  @Provide
  Arbitrary<Sample> samples() {
    return FaultyBer.samples(BerLimits.DEFAULT_MAX_DEPTH);
  }

  @Property(tries = 1000)
  void ferryAndBouncyCastleAgreeOnWhatIsDer(@ForAll("samples") Sample sample) {
    byte[] bytes = sample.bytes().toByteArray();
    boolean ferry = ferryAcceptsAsDer(bytes);
    boolean bc = bouncyCastleAcceptsAsDer(bytes);
    switch (sample.fault()) {
      case UNSORTED_SET_OF -> {
        assertEquals(true, ferry, () -> "Ferry: " + sample);
        assertEquals(false, bc, () -> "Bouncy Castle: " + sample);
      }
      case TOO_DEEP -> {
        assertEquals(false, ferry, () -> "Ferry: " + sample);
        assertEquals(true, bc, () -> "Bouncy Castle: " + sample);
      }
      default -> assertEquals(bc, ferry, () -> "Ferry " + (ferry ? "accepts" : "refuses")
          + " as DER what Bouncy Castle " + (bc ? "accepts" : "refuses") + ": " + sample);
    }
    assertEquals(sample.fault() == Fault.NONE, ferry && bc, () -> "both accept " + sample);
  }

  private static boolean ferryAcceptsAsDer(byte[] bytes) {
    BerReader r = BerReader.of(dev.ferry.bytes.ByteString.of(bytes), BerRules.DER,
        BerLimits.DEFAULTS);
    try {
      BerTree.read(r, null);
      return !r.hasNextElement();
    } catch (BerException e) {
      return false;
    } catch (IOException e) {
      throw new AssertionError("not a BerException", e);
    }
  }

  private static boolean bouncyCastleAcceptsAsDer(byte[] bytes) {
    try {
      ASN1Primitive p = ASN1Primitive.fromByteArray(bytes); // refuses data after the object
      return Arrays.equals(p.getEncoded(ASN1Encoding.DER), bytes);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
