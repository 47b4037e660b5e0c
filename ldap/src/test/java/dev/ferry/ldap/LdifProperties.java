package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.bytes.ByteString;
import dev.ferry.testkit.Chunking;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** What {@link LdifWriter} writes, {@link LdifReader} reads back the same, however it arrives. */
class LdifProperties {
  /** Names that would be read as the start of a change record if they came first. */
  private static final Set<String> RESERVED = Set.of("dn", "changetype", "control", "version");

  static Arbitrary<String> text() {
    // any text, including what must go in base64: leading space, ':', '<', CR, LF, NUL, UTF-8
    return Arbitraries.strings().withCharRange(' ', '~').withChars('\n', '\r', '\0', 'é', '中',
        ':', '<').ofMaxLength(40);
  }

  static Arbitrary<String> descriptions() {
    return Combinators.combine(Arbitraries.strings().withCharRange('a', 'z').ofLength(1),
        Arbitraries.strings().withCharRange('a', 'z').withChars('-', '1', '.').ofMaxLength(10),
        Arbitraries.of("", ";binary", ";lang-en")).as((a, b, c) -> a + b + c)
        .filter(d -> !RESERVED.contains(d.toLowerCase(java.util.Locale.ROOT)));
  }

  static Arbitrary<ByteString> values() {
    return Arbitraries.oneOf(text().map(ByteString::encodeUtf8), LdapArbitraries.bytes());
  }

  /** Attributes as a record holds them: distinct descriptions, each with a value or more. */
  static Arbitrary<List<Attribute>> entryAttributes(int minSize) {
    return Combinators.combine(descriptions(), values().list().ofMinSize(1).ofMaxSize(4))
        .as(Attribute::new).list().ofMinSize(minSize).ofMaxSize(6)
        .uniqueElements(a -> a.description().toLowerCase(java.util.Locale.ROOT));
  }

  static Arbitrary<List<Control>> controls() {
    return LdapArbitraries.controls().list().ofMaxSize(2);
  }

  @Provide
  Arbitrary<List<LdifRecord>> files() {
    return records().list().ofMaxSize(5);
  }

  static Arbitrary<LdifRecord> records() {
    Arbitrary<Modification> mod = Combinators.combine(Arbitraries.of(Modification.Type.class),
        Combinators.combine(descriptions(), values().list().ofMaxSize(3)).as(Attribute::new))
        .as(Modification::new);
    return Arbitraries.oneOf(
        Combinators.combine(text(), entryAttributes(0)).as(LdifRecord.Entry::new),
        Combinators.combine(text(), entryAttributes(1), controls()).as(LdifRecord.Add::new),
        Combinators.combine(text(), controls()).as(LdifRecord.Delete::new),
        Combinators.combine(text(), mod.list().ofMaxSize(4), controls())
            .as(LdifRecord.Modify::new),
        Combinators.combine(text(), text(), Arbitraries.of(true, false),
            text().injectNull(0.5), controls()).as(LdifRecord.ModifyDn::new));
  }

  static byte[] write(List<LdifRecord> records, int wrapColumn, boolean version)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (LdifWriter w = LdifWriter.of(out, wrapColumn)) {
      if (version) {
        w.writeVersion();
      }
      for (LdifRecord r : records) {
        w.writeComment("record " + r.dn().length());
        w.write(r);
      }
    }
    return out.toByteArray();
  }

  @Property(tries = 400)
  void readBackIsWhatWasWritten(@ForAll("files") List<LdifRecord> records,
      @ForAll @IntRange(min = 0, max = 90) int wrap, @ForAll boolean version)
      throws IOException {
    int wrapColumn = wrap < 2 ? 0 : wrap;
    byte[] ldif = write(records, wrapColumn, version);
    assertEquals(records, LdifReaderTest.read(ldif, Chunking.whole()));
  }

  @Property(tries = 200)
  void chunkingDoesNotChangeTheRecords(@ForAll("files") List<LdifRecord> records,
      @ForAll @IntRange(min = 1, max = 40) int maxChunk, @ForAll long seed) throws IOException {
    byte[] ldif = write(records, LdifWriter.DEFAULT_WRAP_COLUMN, true);
    assertEquals(records, LdifReaderTest.read(ldif, Chunking.random(seed, maxChunk)));
  }

  @Property(tries = 200)
  void linesFitTheWrapColumn(@ForAll("files") List<LdifRecord> records,
      @ForAll @IntRange(min = 2, max = 90) int wrap) throws IOException {
    String ldif = new String(write(records, wrap, false), java.nio.charset.StandardCharsets.UTF_8);
    for (String line : ldif.split("\n")) {
      assertEquals(true, line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= wrap,
          line);
    }
  }
}
