package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.internal.BytesAccess;
import dev.ferry.testkit.Allocations;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What decoding a SearchResultEntry from an array the caller hands over allocates, pinned per
 * decode at the sizes the LDAP benchmark measures (LdapEntryBenchmark's 1k, 4k and 64k shapes):
 * at most 1.5 times the PDU, values sliced from the caller's array, never copied.
 */
class DecodeAllocationTest {
  private static final int DECODES = 2_000;

  /** An entry like the benchmark's: {@code attributes} values of 32 letters, or one large one. */
  static byte[] pdu(String shape) {
    Random r = new Random(42);
    List<Attribute> attributes = new ArrayList<>();
    int small = switch (shape) {
      case "1k" -> 20;
      case "4k" -> 80;
      default -> 3;
    };
    for (int i = 0; i < small; i++) {
      byte[] v = new byte[32];
      for (int j = 0; j < v.length; j++) {
        v[j] = (byte) ('a' + r.nextInt(26));
      }
      attributes.add(new Attribute("attribute" + i, List.of(ByteString.of(v))));
    }
    if (shape.equals("64k")) {
      byte[] photo = new byte[64 * 1024];
      r.nextBytes(photo);
      attributes.add(new Attribute("jpegPhoto", List.of(ByteString.of(photo))));
    }
    return LdapCodec.encode(LdapMessage.of(17, new ProtocolOp.SearchResultEntry(
        "uid=user1,ou=people,dc=example,dc=com", attributes))).toByteArray();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1k", "4k", "64k"})
  void decodingAHandedOverArrayAllocatesAtMostOneAndAHalfPdus(String shape)
      throws BerException {
    byte[] pdu = pdu(shape);
    LdapMessage first = LdapCodec.decode(ByteString.takeOwnership(pdu));
    for (Attribute a : ((ProtocolOp.SearchResultEntry) first.op()).attributes()) {
      assertSame(pdu, BytesAccess.get().array(a.value(0)), "a slice of the caller's array");
    }
    for (int i = 0; i < DECODES; i++) { // warm up, and fill the description cache
      LdapCodec.decode(ByteString.takeOwnership(pdu));
    }
    long before = Allocations.currentThread();
    LdapMessage last = null;
    for (int i = 0; i < DECODES; i++) {
      last = LdapCodec.decode(ByteString.takeOwnership(pdu));
    }
    double perDecode = (double) (Allocations.currentThread() - before) / DECODES;
    System.err.printf("ALLOC %s: pdu %d bytes, %.0f bytes per decode (%.2fx)%n", shape,
        pdu.length, perDecode, perDecode / pdu.length);
    assertEquals(first, last);
    assertTrue(perDecode <= 1.5 * pdu.length, () -> shape + ": " + perDecode
        + " bytes allocated per decode of a " + pdu.length + "-byte PDU");
  }
}
