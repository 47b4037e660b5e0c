package dev.ferry.asn1;

import static dev.ferry.testkit.DecodeAssertions.assertFails;
import static dev.ferry.testkit.DecodeAssertions.assertOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.ferry.bytes.ByteString;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BerStringsTest {

  private static BerReader reader(String hex) {
    return BerReader.of(ByteString.decodeHex(hex));
  }

  @Test
  void returnsTheCachedInstanceForRepeatedAsciiStrings() throws IOException {
    BerStrings cache = new BerStrings();
    BerReader r = reader("04 02 63 6e 04 02 63 6e 04 02 73 6e 02 01 05");
    String first = r.readUtf8String(BerTags.OCTET_STRING, cache);
    String second = r.readUtf8String(BerTags.OCTET_STRING, cache);
    assertEquals("cn", first);
    assertSame(first, second);
    assertEquals("sn", r.readUtf8String(BerTags.OCTET_STRING, cache));
    assertEquals(5, r.readInteger());
  }

  @Test
  void decodesNonAsciiAndLongStringsWithoutCaching() throws IOException {
    BerStrings cache = new BerStrings();
    String long49 = "x".repeat(49);
    String hex = "04 02 c3 a9 04 02 c3 a9 04 31 " + "78".repeat(49) + " 04 31 " + "78".repeat(49);
    BerReader r = reader(hex);
    assertEquals("é", r.readUtf8String(BerTags.OCTET_STRING, cache));
    assertEquals("é", r.readUtf8String(BerTags.OCTET_STRING, cache));
    String a = r.readUtf8String(BerTags.OCTET_STRING, cache);
    String b = r.readUtf8String(BerTags.OCTET_STRING, cache);
    assertEquals(long49, a);
    assertNotSame(a, b);
  }

  @Test
  void stillReportsTypeAndUtf8Errors() {
    BerStrings cache = new BerStrings();
    BerException type = assertFails(BerException.class,
        () -> reader("02 01 01").readUtf8String(BerTags.OCTET_STRING, cache));
    assertOffset(0, type.byteOffset());
    BerException utf8 = assertFails(BerException.class,
        () -> reader("04 02 c3 28").readUtf8String(BerTags.OCTET_STRING, cache));
    assertOffset(2, utf8.byteOffset());
  }

  @Test
  void asciiFromAnArraySharesTheCacheWithTheReader() throws IOException {
    BerStrings cache = new BerStrings();
    byte[] src = "xxobjectClassyy".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    String fromArray = cache.ascii(src, 2, 11);
    assertEquals("objectClass", fromArray);
    assertSame(fromArray, cache.ascii(src.clone(), 2, 11));
    BerReader r = reader("04 0b " + ByteString.encodeUtf8("objectClass").hex());
    assertSame(fromArray, r.readUtf8String(BerTags.OCTET_STRING, cache));
    // empty, too long, or not ASCII: null, for the caller to decode
    assertEquals(null, cache.ascii(src, 0, 0));
    assertEquals(null, cache.ascii(new byte[49], 0, 49));
    assertEquals(null, cache.ascii(new byte[] {'a', (byte) 0xc3, (byte) 0xa9}, 0, 3));
    // a collision or a different string of the same slot is a miss, never a wrong answer
    assertEquals("cn", cache.ascii(new byte[] {'c', 'n'}, 0, 2));
    assertEquals("cm", cache.ascii(new byte[] {'c', 'm'}, 0, 2));
    assertEquals("cn", cache.ascii(new byte[] {'c', 'n'}, 0, 2));
    org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class,
        () -> cache.ascii(src, 10, 6));
  }
}
