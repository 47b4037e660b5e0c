package dev.ferry.asn1;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

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
      List<BerTree> memory = walk(BerReader.of(data, rules, LIMITS));
      List<BerTree> stream = walk(BerReader.of(data.asInputStream(), rules, LIMITS));
      // The stream facade frames a whole top-level element before handing out any of it, so on
      // bad input it fails earlier; both must fail, or both must read the same elements.
      if (!Objects.equals(memory, stream)) {
        throw new AssertionError(rules + ": memory read " + memory + " but stream read " + stream);
      }
    }
  }

  /** Reads every element by its type; returns null if the input is bad. */
  private static List<BerTree> walk(BerReader r) {
    try {
      return BerTree.readAll(r);
    } catch (BerException e) {
      if (e.byteOffset() < 0) {
        throw new AssertionError("no offset: " + e);
      }
      return null;
    } catch (IOException e) {
      throw new AssertionError("not a BerException", e);
    }
  }
}
