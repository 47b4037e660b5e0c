package dev.ferry.asn1;

import dev.ferry.asn1.BerTree.Bool;
import dev.ferry.asn1.BerTree.Constructed;
import dev.ferry.asn1.BerTree.Int;
import dev.ferry.asn1.BerTree.Null;
import dev.ferry.asn1.BerTree.Octets;
import dev.ferry.asn1.BerTree.Text;
import dev.ferry.bytes.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Hostile BER for the readers' properties: a valid DER element tree, encoded here by hand with
 * exactly one {@link Fault} at a randomly chosen element, with the rule sets that must reject the
 * result and the offset where the fault starts.
 */
final class FaultyBer {
  private static final Set<BerRules> ALL = EnumSet.allOf(BerRules.class);
  private static final Comparator<byte[]> DER_ORDER = Arrays::compareUnsigned;

  /** What is wrong with a sample, and who must say so. */
  enum Fault {
    NONE(0, false, EnumSet.noneOf(BerRules.class)),
    /** A tag number in more octets than it needs: never (X.690 8.1.2.2 and 8.1.2.4.2 c). */
    NON_MINIMAL_TAG(1, true, ALL),
    /** A length in more octets than it needs: BER allows it (X.690 8.1.3.5), DER not (10.1). */
    NON_MINIMAL_LENGTH(0, true, EnumSet.of(BerRules.DER)),
    /** An indefinite length with end-of-contents octets: BER only (RFC 4511 5.1, X.690 10.1). */
    INDEFINITE_LENGTH(0, true, EnumSet.of(BerRules.LDAP, BerRules.DER)),
    /** An OCTET STRING in segments: BER only. */
    CONSTRUCTED_STRING(0, false, EnumSet.of(BerRules.LDAP, BerRules.DER)),
    /** An INTEGER with a redundant leading octet: never (X.690 8.3.2). */
    NON_MINIMAL_INTEGER(0, false, ALL),
    /** TRUE as neither 0xff nor 0x00: BER allows it, DER not (11.1). */
    NON_CANONICAL_BOOLEAN(0, false, EnumSet.of(BerRules.DER)),
    /** 00 00 among the elements of definite-length contents: never (X.690 8.1.5). */
    END_OF_CONTENTS_IN_DEFINITE(0, true, ALL),
    /** One or two bytes at the end of a constructed element's contents that are no element. */
    GARBAGE_IN_CONSTRUCTED(2, true, ALL),
    /** One or two bytes after the top-level element that are no element. */
    TRAILING_GARBAGE(2, true, ALL),
    /** A length that claims 1 to 3 bytes more than its enclosing element or the input has. */
    LENGTH_PAST_END(0, true, ALL),
    /** Constructed elements nested one deeper than {@link BerLimits#maxDepth()}. */
    TOO_DEEP(0, true, ALL),
    /** A SET OF whose elements are not in DER order: the reader cannot tell it from a SET. */
    UNSORTED_SET_OF(0, false, EnumSet.noneOf(BerRules.class));

    /** How far past the fault's first byte the error may be reported (a header read on). */
    final int offsetSlack;
    /** True if skipping the faulty element, rather than reading its value, must see it. */
    final boolean structural;
    final Set<BerRules> rejectedBy;

    Fault(int offsetSlack, boolean structural, Set<BerRules> rejectedBy) {
      this.offsetSlack = offsetSlack;
      this.structural = structural;
      this.rejectedBy = rejectedBy;
    }
  }

  /** One encoding: the tree a reader that accepts it must return, and where the fault is. */
  record Sample(BerTree tree, Fault fault, ByteString bytes, int faultOffset) {
    @Override
    public String toString() {
      return fault + " at byte " + faultOffset + " of " + bytes.hex();
    }
  }

  private final Fault fault;
  private final Random random;
  private final int maxDepth;
  private int target = -1; // preorder index of the element the fault is put into
  private int next; // preorder index of the next element encoded
  private boolean deepMarked;

  private FaultyBer(Fault fault, long seed, int maxDepth) {
    this.fault = fault;
    this.random = new Random(seed);
    this.maxDepth = maxDepth;
  }

  /** Samples of every fault over random trees, for readers limited to {@code maxDepth}. */
  static Arbitrary<Sample> samples(int maxDepth) {
    return Combinators.combine(trees(), Arbitraries.of(Fault.class), Arbitraries.longs())
        .as((tree, fault, seed) -> encode(tree, fault, seed, maxDepth));
  }

  /** Encodes {@code tree} with {@code fault}, choosing where with {@code seed}. */
  static Sample encode(BerTree tree, Fault fault, long seed, int maxDepth) {
    return new FaultyBer(fault, seed, maxDepth).encode(tree);
  }

  /** Returns the DER encoding of {@code tree}, as Ferry's DER writer writes it. */
  static byte[] der(BerTree tree) {
    try {
      return BerWriter.encode(BerRules.DER, tree::write).toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // --- trees -----------------------------------------------------------------------------------

  /** Valid DER trees up to three constructed levels deep, SET OFs sorted. */
  static Arbitrary<BerTree> trees() {
    return tree(3);
  }

  private static Arbitrary<BerTree> tree(int levels) {
    if (levels == 0) {
      return leaves();
    }
    Arbitrary<BerTree> sequence = Combinators.combine(constructedTypes(),
        tree(levels - 1).list().ofMaxSize(4)).as(Constructed::new);
    Arbitrary<List<BerTree>> sameKind = Arbitraries.oneOf(ints().list().ofMaxSize(3),
        octets(Arbitraries.just(BerTags.OCTET_STRING)).list().ofMaxSize(3),
        sequence.list().ofMaxSize(3));
    Arbitrary<BerTree> setOf = sameKind.map(FaultyBer::sortedSetOf);
    return Arbitraries.frequencyOf(Tuple.of(3, leaves()), Tuple.of(2, sequence),
        Tuple.of(1, setOf));
  }

  private static BerTree sortedSetOf(List<BerTree> elements) {
    List<BerTree> sorted = new ArrayList<>(elements);
    sorted.sort(Comparator.comparing(FaultyBer::der, DER_ORDER));
    return new Constructed(BerTags.SET, sorted);
  }

  private static Arbitrary<BerTree> leaves() {
    return Arbitraries.oneOf(ints(), Arbitraries.of(true, false).map(Bool::new),
        Arbitraries.just(new Null()),
        Arbitraries.strings().withCharRange('a', 'z').withChars("é€中 ").ofMaxLength(12)
            .map(Text::new),
        octets(primitiveTypes()));
  }

  private static Arbitrary<BerTree> ints() {
    return Arbitraries.bigIntegers().between(BigInteger.TWO.pow(70).negate(),
        BigInteger.TWO.pow(70)).map(Int::new);
  }

  private static Arbitrary<BerTree> octets(Arbitrary<Integer> types) {
    Arbitrary<byte[]> values = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.bytes().array(byte[].class).ofMaxSize(24)),
        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(120).ofMaxSize(300)));
    return Combinators.combine(types, values).as((t, v) -> new Octets(t, ByteString.of(v)));
  }

  private static Arbitrary<Integer> primitiveTypes() {
    return Arbitraries.oneOf(Arbitraries.just(BerTags.OCTET_STRING), tagged(false));
  }

  private static Arbitrary<Integer> constructedTypes() {
    return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(BerTags.SEQUENCE)),
        Tuple.of(1, tagged(true)));
  }

  private static Arbitrary<Integer> tagged(boolean constructed) {
    return Combinators.combine(Arbitraries.of(BerTags.CONTEXT, BerTags.APPLICATION,
            BerTags.PRIVATE), Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.integers()
            .between(0, 30)), Tuple.of(1, Arbitraries.integers().between(31, 20_000))))
        .as((cls, n) -> BerTags.type(cls, constructed, n));
  }

  // --- choosing where the fault goes -----------------------------------------------------------

  private Sample encode(BerTree tree) {
    if (fault == Fault.TOO_DEEP) {
      for (int i = levels(tree); i <= maxDepth; i++) {
        tree = new Constructed(BerTags.SEQUENCE, List.of(tree));
      }
    }
    List<Integer> eligible = eligible(tree);
    if (eligible.isEmpty() && needsTarget()) {
      tree = new Constructed(BerTags.SEQUENCE, List.of(tree, fallback()));
      eligible = eligible(tree);
    }
    if (!eligible.isEmpty()) {
      target = eligible.get(random.nextInt(eligible.size()));
    }
    if (fault == Fault.UNSORTED_SET_OF) {
      tree = reverseSetAt(tree, new int[] {0});
    }
    Encoded root = encode(tree, 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(root.bytes);
    int at = root.faultAt;
    if (fault == Fault.TRAILING_GARBAGE) {
      at = out.size();
      out.writeBytes(garbage());
    }
    return new Sample(tree, fault, ByteString.of(out.toByteArray()), at);
  }

  private boolean needsTarget() {
    return switch (fault) {
      case NONE, TRAILING_GARBAGE, TOO_DEEP -> false;
      default -> true;
    };
  }

  /** An element the fault can go into, for trees that have none. */
  private BerTree fallback() {
    return switch (fault) {
      case NON_MINIMAL_INTEGER -> new Int(BigInteger.valueOf(random.nextInt()));
      case NON_CANONICAL_BOOLEAN -> new Bool(true);
      case CONSTRUCTED_STRING -> new Octets(BerTags.OCTET_STRING, ByteString.encodeUtf8("abc"));
      case UNSORTED_SET_OF -> sortedSetOf(List.of(new Int(BigInteger.ONE),
          new Int(BigInteger.TWO)));
      default -> new Constructed(BerTags.SEQUENCE, List.of(new Null()));
    };
  }

  /** Preorder indexes of the elements the fault can go into. */
  private List<Integer> eligible(BerTree tree) {
    List<Integer> out = new ArrayList<>();
    collect(tree, new int[] {0}, true, out);
    return out;
  }

  private void collect(BerTree n, int[] index, boolean lastOnItsLevel, List<Integer> out) {
    int i = index[0]++;
    if (eligible(n, lastOnItsLevel)) {
      out.add(i);
    }
    if (n instanceof Constructed c) {
      for (int k = 0; k < c.children().size(); k++) {
        collect(c.children().get(k), index, lastOnItsLevel && k == c.children().size() - 1,
            out);
      }
    }
  }

  private boolean eligible(BerTree n, boolean lastOnItsLevel) {
    return switch (fault) {
      case NON_MINIMAL_LENGTH, NON_MINIMAL_TAG -> true;
      // only an element that ends where all its ancestors end overruns them all
      case LENGTH_PAST_END -> lastOnItsLevel;
      case INDEFINITE_LENGTH, END_OF_CONTENTS_IN_DEFINITE, GARBAGE_IN_CONSTRUCTED ->
          n instanceof Constructed;
      case CONSTRUCTED_STRING -> n instanceof Octets o && o.type() == BerTags.OCTET_STRING;
      case NON_MINIMAL_INTEGER -> n instanceof Int;
      case NON_CANONICAL_BOOLEAN -> n instanceof Bool b && b.value();
      case UNSORTED_SET_OF -> n instanceof Constructed c && c.type() == BerTags.SET
          && c.children().size() >= 2 && !Arrays.equals(der(c.children().getFirst()),
              der(c.children().getLast()));
      default -> false;
    };
  }

  private BerTree reverseSetAt(BerTree n, int[] index) {
    int i = index[0]++;
    if (!(n instanceof Constructed c)) {
      return n;
    }
    List<BerTree> children = new ArrayList<>();
    for (BerTree child : c.children()) {
      children.add(reverseSetAt(child, index));
    }
    if (i == target) {
      children = children.reversed();
    }
    return new Constructed(c.type(), children);
  }

  private static int levels(BerTree n) {
    if (!(n instanceof Constructed c)) {
      return 0;
    }
    int deepest = 0;
    for (BerTree child : c.children()) {
      deepest = Math.max(deepest, levels(child));
    }
    return 1 + deepest;
  }

  // --- encoding --------------------------------------------------------------------------------

  /** Bytes, and where the fault starts in them (-1: not in them). */
  private record Encoded(byte[] bytes, int faultAt) {}

  private Encoded encode(BerTree n, int level) {
    boolean hit = next++ == target;
    return switch (n) {
      case Constructed c -> constructed(c, level, hit);
      case Int i -> integer(i, hit);
      case Bool b -> element(BerTags.BOOLEAN, new byte[] {(byte) (!b.value() ? 0
          : hit && fault == Fault.NON_CANONICAL_BOOLEAN ? 1 + random.nextInt(254) : 0xff)},
          hit && fault == Fault.NON_CANONICAL_BOOLEAN ? 0 : -1, hit, false);
      case Null x -> element(BerTags.NULL, new byte[0], -1, hit, false);
      case Text t -> element(BerTags.UTF8_STRING, t.value().getBytes(StandardCharsets.UTF_8), -1,
          hit, false);
      case Octets o -> hit && fault == Fault.CONSTRUCTED_STRING ? segmented(o)
          : element(o.type(), o.value().toByteArray(), -1, hit, false);
    };
  }

  private Encoded integer(Int i, boolean hit) {
    byte[] minimal = i.value().toByteArray();
    if (!(hit && fault == Fault.NON_MINIMAL_INTEGER)) {
      return element(BerTags.INTEGER, minimal, -1, hit, false);
    }
    byte[] padded = new byte[minimal.length + 1];
    padded[0] = (byte) (minimal[0] < 0 ? 0xff : 0x00);
    System.arraycopy(minimal, 0, padded, 1, minimal.length);
    return element(BerTags.INTEGER, padded, 0, hit, false);
  }

  private Encoded segmented(Octets o) {
    byte[] value = o.value().toByteArray();
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    int cut = value.length == 0 ? 0 : random.nextInt(value.length + 1);
    for (byte[] part : new byte[][] {Arrays.copyOf(value, cut),
        Arrays.copyOfRange(value, cut, value.length)}) {
      content.writeBytes(element(BerTags.OCTET_STRING, part, -1, false, false).bytes);
    }
    return element(BerTags.OCTET_STRING | BerTags.CONSTRUCTED, content.toByteArray(), -1, true,
        true);
  }

  private Encoded constructed(Constructed c, int level, boolean hit) {
    boolean tooDeep = fault == Fault.TOO_DEEP && level > maxDepth && !deepMarked;
    deepMarked |= tooDeep;
    List<byte[]> parts = new ArrayList<>();
    int faultAt = -1;
    int size = 0;
    for (BerTree child : c.children()) {
      Encoded e = encode(child, level + 1);
      faultAt = e.faultAt >= 0 ? size + e.faultAt : faultAt;
      parts.add(e.bytes);
      size += e.bytes.length;
    }
    if (hit && fault == Fault.END_OF_CONTENTS_IN_DEFINITE) {
      int before = random.nextInt(parts.size() + 1);
      faultAt = 0;
      for (int k = 0; k < before; k++) {
        faultAt += parts.get(k).length;
      }
      parts.add(before, new byte[] {0, 0});
    }
    if (hit && fault == Fault.GARBAGE_IN_CONSTRUCTED) {
      faultAt = size;
      parts.add(garbage());
    }
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    parts.forEach(content::writeBytes);
    return element(c.type(), content.toByteArray(), faultAt, hit,
        tooDeep || (hit && fault == Fault.UNSORTED_SET_OF));
  }

  /**
   * Writes identifier, length and content; {@code contentFaultAt} is where in the content the
   * fault starts, and {@code faultHere} says that it starts at this element's first byte. A
   * length fault of a hit element is put into its length octets.
   */
  private Encoded element(int type, byte[] content, int contentFaultAt, boolean hit,
      boolean faultHere) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(identifier(type, hit && fault == Fault.NON_MINIMAL_TAG));
    int lengthAt = out.size();
    boolean indefinite = hit && fault == Fault.INDEFINITE_LENGTH;
    if (indefinite) {
      out.write(0x80);
    } else {
      int extra = hit && fault == Fault.LENGTH_PAST_END ? 1 + random.nextInt(3) : 0;
      out.writeBytes(length(content.length + extra, hit && fault == Fault.NON_MINIMAL_LENGTH));
    }
    int contentAt = out.size();
    out.writeBytes(content);
    if (indefinite) {
      out.writeBytes(new byte[] {0, 0});
    }
    boolean lengthFault = hit && (fault == Fault.INDEFINITE_LENGTH
        || fault == Fault.LENGTH_PAST_END || fault == Fault.NON_MINIMAL_LENGTH);
    int at = faultHere || (hit && fault == Fault.NON_MINIMAL_TAG) ? 0 : lengthFault ? lengthAt
        : contentFaultAt >= 0 ? contentAt + contentFaultAt : -1;
    return new Encoded(out.toByteArray(), at);
  }

  /**
   * Returns the identifier octets of {@code type}; {@code padded}, a low tag number in the
   * high-tag form, or a high one with a leading 0x80 octet.
   */
  private static byte[] identifier(int type, boolean padded) {
    int number = BerTags.number(type);
    if (number < 31 && !padded) {
      return new byte[] {(byte) type};
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(type & 0xe0 | 0x1f);
    if (padded && number >= 31) {
      out.write(0x80);
    }
    for (int shift = 14; shift >= 0; shift -= 7) {
      if (number >>> shift != 0 || shift == 0) {
        out.write((number >>> shift & 0x7f) | (shift > 0 ? 0x80 : 0));
      }
    }
    return out.toByteArray();
  }

  /** A definite length: minimal, or in one octet more than it needs. */
  private static byte[] length(int length, boolean padded) {
    if (length < 0x80 && !padded) {
      return new byte[] {(byte) length};
    }
    int octets = length < 0x80 ? 0 : (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
    if (padded) {
      octets++; // a leading zero octet, or the long form where the short one would do
    }
    byte[] out = new byte[1 + octets];
    out[0] = (byte) (0x80 | octets);
    for (int k = 0; k < octets; k++) {
      out[octets - k] = (byte) (length >>> 8 * k);
    }
    return out;
  }

  /** One byte, or an identifier and a length with no content after them: never an element. */
  private byte[] garbage() {
    if (random.nextBoolean()) {
      return new byte[] {(byte) random.nextInt(256)};
    }
    return new byte[] {(byte) random.nextInt(256), (byte) (1 + random.nextInt(127))};
  }
}
