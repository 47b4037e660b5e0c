package dev.ferry.asn1;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ferry.bytes.ByteString;
import java.io.IOException;

/**
 * Fuzzes {@link BerReader}: any input, read as a tree under every rule set, in memory and from a
 * stream, must either decode or fail with a {@link BerException}; anything else (an unchecked
 * exception, a hang, an out-of-memory) is a finding. Both readers must agree.
 *
 * <p>In a normal build this replays the committed corpus in
 * {@code src/test/resources/dev/ferry/asn1/BerReaderFuzzTestInputs/readsAnyInput/}; see
 * docs/fuzzing.md for a real fuzzing run.
 */
class BerReaderFuzzTest {
  private static final BerLimits LIMITS = BerLimits.builder().maxPduBytes(1 << 16)
      .maxElementBytes(1 << 15).maxDepth(32).build();

  @FuzzTest(maxDuration = "30s")
  void readsAnyInput(byte[] input) throws IOException {
    ByteString data = ByteString.of(input);
    for (BerRules rules : BerRules.values()) {
      String memory = walk(BerReader.of(data, rules, LIMITS));
      String stream = walk(BerReader.of(data.asInputStream(), rules, LIMITS));
      // The stream facade frames a whole top-level element before handing out any of it, so on
      // bad input it fails earlier; both must fail, or both must read the same elements.
      boolean bothFailed = memory.endsWith("!error") && stream.endsWith("!error");
      if (!bothFailed && !memory.equals(stream)) {
        throw new AssertionError(rules + ": memory read " + memory + " but stream read " + stream);
      }
    }
  }

  /** Walks every element; returns a summary, or the error's offset if the input is bad. */
  private static String walk(BerReader r) {
    StringBuilder s = new StringBuilder();
    try {
      walkElements(r, s);
    } catch (BerException e) {
      if (e.byteOffset() < 0) {
        throw new AssertionError("no offset: " + e);
      }
      s.append("!error");
    } catch (IOException e) {
      throw new AssertionError("not a BerException", e);
    }
    return s.toString();
  }

  private static void walkElements(BerReader r, StringBuilder s) throws IOException {
    while (r.hasNextElement()) {
      int type = r.peekType();
      s.append(Integer.toHexString(type)).append(' ');
      if (BerTags.isConstructed(type)) {
        r.readStartSequence(type);
        s.append('{');
        walkElements(r, s);
        r.readEndSequence();
        s.append('}');
      } else if (type == BerTags.INTEGER && r.peekLength() <= 8) {
        s.append(r.readLong());
      } else if (type == BerTags.BOOLEAN) {
        s.append(r.readBoolean());
      } else if (type == BerTags.UTF8_STRING) {
        s.append(r.readUtf8String().length());
      } else {
        s.append(r.readOctetString(type).size());
      }
    }
  }
}
