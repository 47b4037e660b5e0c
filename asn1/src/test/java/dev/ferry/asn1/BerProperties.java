package dev.ferry.asn1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Round trips of random element trees: write, then read under every rule set and a stream. */
class BerProperties {

  /** A node: a primitive (kind 0..5) or a constructed element with children. */
  record Node(int kind, int type, Object value, List<Node> children) {}

  @Provide
  Arbitrary<Node> trees() {
    return node(4);
  }

  private Arbitrary<Node> node(int depth) {
    // [UNIVERSAL 0] is reserved for end-of-contents: no element has it
    Arbitrary<Integer> tags = Arbitraries.integers().between(0, 3).flatMap(cls ->
        Arbitraries.integers().between(cls == 0 ? 1 : 0, 300)
            .map(n -> BerTags.type(cls << 6, false, n)));
    Arbitrary<Node> leaf = Arbitraries.oneOf(
        Arbitraries.longs().map(v -> new Node(0, BerTags.INTEGER, v, List.of())),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(300)
            .flatMap(b -> tags.map(t -> new Node(1, t, ByteString.of(b), List.of()))),
        Arbitraries.strings().ofMaxLength(40)
            .map(s -> new Node(2, BerTags.UTF8_STRING, s, List.of())),
        Arbitraries.of(true, false).map(b -> new Node(3, BerTags.BOOLEAN, b, List.of())),
        Arbitraries.just(new Node(4, BerTags.NULL, null, List.of())),
        Arbitraries.bigIntegers().between(BigInteger.TWO.pow(100).negate(),
            BigInteger.TWO.pow(100)).map(v -> new Node(5, BerTags.INTEGER, v, List.of())));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Node> constructed = node(depth - 1).list().ofMaxSize(5).flatMap(children ->
        tags.map(t -> new Node(6, t | BerTags.CONSTRUCTED, null, children)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, leaf), net.jqwik.api.Tuple.of(1, constructed));
  }

  @Property(tries = 300)
  void writtenTreesReadBackUnderEveryRuleSet(@ForAll("trees") Node tree) throws IOException {
    ByteString encoded = BerWriter.encode(w -> write(w, tree));
    for (BerRules rules : BerRules.values()) {
      if (rules == BerRules.DER && containsUnsortableTree(tree)) {
        continue;
      }
      BerReader r = BerReader.of(encoded, rules, BerLimits.DEFAULTS);
      assertEquals(tree, read(r, tree));
      assertEquals(false, r.hasNextElement());
    }
    BerReader s = BerReader.of(encoded.asInputStream(), BerRules.LDAP, BerLimits.DEFAULTS);
    assertEquals(tree, read(s, tree));
    assertEquals(encoded, BerWriter.encode(w -> write(w, tree)));
  }

  private static boolean containsUnsortableTree(Node n) {
    return false; // the writer emits DER shapes; SET ordering is not checked by the reader
  }

  private static void write(BerWriter w, Node n) throws IOException {
    switch (n.kind) {
      case 0 -> w.writeInteger((Long) n.value);
      case 1 -> w.writeOctetString(n.type, (ByteString) n.value);
      case 2 -> w.writeUtf8String((String) n.value);
      case 3 -> w.writeBoolean((Boolean) n.value);
      case 4 -> w.writeNull();
      case 5 -> w.writeInteger(n.type, (BigInteger) n.value);
      default -> {
        w.writeStartSequence(n.type);
        for (Node c : n.children) {
          write(w, c);
        }
        w.writeEndSequence();
      }
    }
  }

  /** Reads the shape {@code expected} has, so that value mismatches show as inequality. */
  private static Node read(BerReader r, Node expected) throws IOException {
    int type = r.peekType();
    return switch (expected.kind) {
      case 0 -> new Node(0, type, r.readLong(), List.of());
      case 1 -> new Node(1, type, r.readOctetString(type), List.of());
      case 2 -> new Node(2, type, r.readUtf8String(), List.of());
      case 3 -> new Node(3, type, r.readBoolean(), List.of());
      case 4 -> {
        r.readNull();
        yield new Node(4, type, null, List.of());
      }
      case 5 -> new Node(5, type, r.readBigInteger(), List.of());
      default -> {
        r.readStartSequence(type);
        List<Node> children = new ArrayList<>();
        for (Node c : expected.children) {
          children.add(read(r, c));
        }
        boolean more = r.hasNextElement();
        r.readEndSequence();
        yield more ? null : new Node(6, type, null, children);
      }
    };
  }
}
