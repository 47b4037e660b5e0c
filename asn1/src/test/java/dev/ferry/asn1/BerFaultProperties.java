package dev.ferry.asn1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.FaultyBer.Fault;
import dev.ferry.asn1.FaultyBer.Sample;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * Hostile BER against every reader ({@link BerRules} BER, LDAP and DER; over an array and over a
 * stream, through the framer): each {@link Fault} is rejected by the rule sets it breaks with an
 * offset at the fault, whether the consumer reads every value or ends constructed elements early
 * and lets {@link BerReader#readEndSequence()} skip the rest; whatever a rule set accepts reads
 * back as the tree that was encoded.
 */
class BerFaultProperties {
  private static final int MAX_DEPTH = 8;
  private static final BerLimits LIMITS = BerLimits.builder().maxDepth(MAX_DEPTH).build();

  @Provide
  Arbitrary<Sample> samples() {
    return FaultyBer.samples(MAX_DEPTH);
  }

  @Provide
  Arbitrary<BerTree> trees() {
    return FaultyBer.trees();
  }

  @Property(tries = 1500)
  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  void everyReaderRejectsWhatItsRulesForbidAndReadsWhatTheyAllow(
      @ForAll("samples") Sample sample) throws IOException {
    Statistics.label("fault").collect(sample.fault()).coverage(c -> {
      for (Fault f : Fault.values()) {
        c.check(f).percentage(p -> p > 3); // each fault is tried, none left out by accident
      }
    });
    for (BerRules rules : BerRules.values()) {
      for (boolean stream : new boolean[] {false, true}) {
        check(sample, rules, stream, null);
        // DER forbids unread bytes, so only BER and LDAP consumers may end elements early;
        // skipping reads headers, not values, so only structural faults must show then.
        if (rules != BerRules.DER && sample.fault().structural) {
          check(sample, rules, stream, new Random(sample.bytes().hashCode()));
        }
      }
    }
  }

  @Property(tries = 300)
  void theGeneratorWritesValidTreesAsFerrysDerWriterDoes(@ForAll("trees") BerTree tree) {
    Sample valid = FaultyBer.encode(tree, Fault.NONE, 0, MAX_DEPTH);
    assertArrayEquals(FaultyBer.der(tree), valid.bytes().toByteArray());
  }

  private static void check(Sample sample, BerRules rules, boolean stream, Random stopEarly)
      throws IOException {
    BerReader r = stream ? BerReader.of(sample.bytes().asInputStream(), rules, LIMITS)
        : BerReader.of(sample.bytes(), rules, LIMITS);
    String where = rules + (stream ? " stream" : " array")
        + (stopEarly != null ? " ending early" : "") + ": " + sample;
    if (!sample.fault().rejectedBy.contains(rules)) {
      List<BerTree> read = readAll(r, stopEarly);
      if (stopEarly == null) {
        assertEquals(List.of(sample.tree()), read, where);
      }
      return;
    }
    BerException e = assertThrows(BerException.class, () -> readAll(r, stopEarly), where);
    long offset = e.byteOffset();
    boolean atFault = offset >= sample.faultOffset()
        && offset <= sample.faultOffset() + sample.fault().offsetSlack;
    // The framer copies a top-level element before the reader sees it: a length past the end
    // of the stream shows where the stream ends.
    boolean atStreamEnd = stream && sample.fault() == Fault.LENGTH_PAST_END
        && offset == sample.bytes().size();
    assertTrue(atFault || atStreamEnd, () -> where + " failed at byte " + offset + ": " + e);
  }

  private static List<BerTree> readAll(BerReader r, Random stopEarly) throws IOException {
    if (stopEarly == null) {
      return BerTree.readAll(r);
    }
    List<BerTree> read = new java.util.ArrayList<>();
    while (r.hasNextElement()) {
      read.add(BerTree.read(r, stopEarly));
    }
    return read;
  }
}
