package dev.ferry.asn1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.testkit.Vectors;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** X.690 DER vectors: decoded under DER rules, and re-encoded byte for byte. */
class BerVectorsTest {

  static Stream<Map<String, String>> vectors() {
    return Vectors.tsv("ber/x690-der.tsv").stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void decodesAndEncodesDerVector(Map<String, String> row) throws IOException {
    String kind = row.get("kind");
    String value = row.get("value");
    ByteString encoding = encoding(row);
    BerReader r = BerReader.of(encoding, BerRules.DER, BerLimits.DEFAULTS);
    ByteString reencoded = BerWriter.encode(w -> writeValue(w, kind, value));
    switch (kind) {
      case "boolean" -> assertEquals(Boolean.parseBoolean(value), r.readBoolean());
      case "integer" -> assertEquals(Integer.parseInt(value), r.readInteger());
      case "long" -> assertEquals(Long.parseLong(value), r.readLong());
      case "big" -> assertEquals(new BigInteger(value), r.readBigInteger());
      case "enumerated" -> assertEquals(Integer.parseInt(value), r.readEnumerated());
      case "null" -> r.readNull();
      case "octets" -> assertEquals(octets(value), r.readOctetString());
      case "utf8" -> assertEquals(value, r.readUtf8String());
      default -> throw new AssertionError("unknown kind " + kind);
    }
    assertEquals(false, r.hasNextElement());
    assertEquals(encoding, reencoded);
  }

  private static ByteString encoding(Map<String, String> row) {
    ByteString header = ByteString.decodeHex(row.get("hex"));
    String value = row.get("value");
    if (!value.startsWith("size:")) {
      return header;
    }
    return new ByteStringBuilder().append(header).append(octets(value)).toByteString();
  }

  private static ByteString octets(String value) {
    if (value.startsWith("size:")) {
      byte[] b = new byte[Integer.parseInt(value.substring(5))];
      java.util.Arrays.fill(b, (byte) 0x41);
      return ByteString.of(b);
    }
    return ByteString.decodeHex(value);
  }

  private static void writeValue(BerWriter w, String kind, String value) throws IOException {
    switch (kind) {
      case "boolean" -> w.writeBoolean(Boolean.parseBoolean(value));
      case "integer", "long" -> w.writeInteger(Long.parseLong(value));
      case "big" -> w.writeInteger(BerTags.INTEGER, new BigInteger(value));
      case "enumerated" -> w.writeEnumerated(Integer.parseInt(value));
      case "null" -> w.writeNull();
      case "octets" -> w.writeOctetString(octets(value));
      case "utf8" -> w.writeUtf8String(value);
      default -> throw new AssertionError(kind);
    }
  }
}
