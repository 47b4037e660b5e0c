package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.mime.MultipartModel.EmptyForm;
import dev.ferry.mime.MultipartModel.Header;
import dev.ferry.mime.MultipartModel.Leaf;
import dev.ferry.mime.MultipartModel.Message;
import dev.ferry.mime.MultipartModel.Multi;
import dev.ferry.mime.MultipartModel.Node;
import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.Vectors;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Ferry against Apache mime4j on random multipart structures that RFC 2046 allows (nesting,
 * empty bodies in every form, empty and present preambles and epilogues, transport padding,
 * folded headers, quoted and unquoted parameters, bare LF line ends), and under lenient header
 * parsing with malformed fields and parameters: Ferry's reader and push parser, in random
 * chunkings, strict and lenient, must see what mime4j sees. Where the two differ by design,
 * docs/limits.md says so and the generator stays out of it. Shrunk failures worth keeping are
 * replayed from {@code vectors/mime/differential}.
 */
class MimeDifferentialProperties {
  private static final String BCHARS =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ";
  private static final String MALFORMED_NAME = "Gr\u00f6\u00dfe";

  @Property(tries = 1000)
  void ferrySeesWhatMime4jSees(@ForAll("messages") Multi root, @ForAll boolean bareLf,
      @ForAll("chunkings") Chunking chunking) throws Exception {
    Message m = MultipartModel.write(root, bareLf);
    Assume.that(noBoundaryInBodies(root, m.boundaries()));
    assertSameAsMime4j(m.body(), m.contentType(), bareLf, hasMalformed(root), chunking);
  }

  /** The shrunk cases worth keeping: each file is the Content-Type line and the body. */
  @Example
  void regressionVectorsParseAsMime4jReadsThem() throws Exception {
    for (String name : Vectors.lines("mime/differential/MANIFEST")) {
      byte[] file = Vectors.bytes("mime/differential/" + name);
      InputStream in = new ByteArrayInputStream(file);
      MimeHeaders head = MimeHeaders.readFrom(in, MimeLimits.DEFAULTS, true);
      byte[] body = in.readAllBytes();
      boolean bareLf = file[indexOf(file, (byte) '\n') - 1] != '\r';
      for (Chunking c : Chunking.standard()) {
        assertSameAsMime4j(body, head.get("Content-Type"), bareLf, name.contains("malformed"),
            c);
      }
    }
  }

  static void assertSameAsMime4j(byte[] body, String contentType, boolean bareLf,
      boolean malformed, Chunking chunking) throws Exception {
    List<String> peer = PeerRendering.mime4j(body, contentType);
    for (boolean lenientLineEnds : bareLf ? List.of(true) : List.of(false, true)) {
      for (boolean lenientHeaders : malformed ? List.of(true) : List.of(false, true)) {
        String mode = "lenient line ends " + lenientLineEnds + ", headers " + lenientHeaders;
        assertThat(PeerRendering.ferry(body, contentType, chunking, lenientLineEnds,
            lenientHeaders)).as("reader, " + mode).isEqualTo(peer);
        assertThat(PeerRendering.ferryPush(body, contentType, chunking, lenientLineEnds,
            lenientHeaders)).as("push parser, " + mode).isEqualTo(peer);
      }
    }
  }

  // ---- generators ------------------------------------------------------------------------------

  @Provide
  Arbitrary<Multi> messages() {
    return multipart(2);
  }

  @Provide
  Arbitrary<Chunking> chunkings() {
    return Arbitraries.oneOf(Arbitraries.just(Chunking.whole()),
        Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(1, 64))
            .as(Chunking::random));
  }

  private Arbitrary<Multi> multipart(int depth) {
    Arbitrary<Node> node = depth == 0 ? leaf().map(l -> (Node) l)
        : Arbitraries.frequencyOf(Tuple.of(3, leaf().map(l -> (Node) l)),
            Tuple.of(1, Arbitraries.lazy(() -> multipart(depth - 1)).map(m -> (Node) m)));
    return Combinators.combine(headers(), Arbitraries.of("mixed", "related", "alternative"),
        boundarySuffixes(), Arbitraries.of(true, false), text(), node.list().ofMinSize(1)
            .ofMaxSize(4), Arbitraries.of("", " ", "\t", "  \t ").list().ofSize(5), text())
        .as((headers, subtype, suffix, quote, preamble, parts, paddings, epilogue) ->
            new Multi(headers, subtype, suffix, quote, preamble, parts,
                paddings.subList(0, parts.size() + 1), epilogue));
  }

  private Arbitrary<Leaf> leaf() {
    Arbitrary<List<Header>> headers = Combinators.combine(headers(), contentType().injectNull(
        0.3)).as((h, type) -> {
          List<Header> all = new ArrayList<>(h);
          if (type != null) {
            all.add(type);
          }
          return all;
        });
    return Combinators.combine(headers, body(), Arbitraries.of(EmptyForm.class))
        .as(Leaf::new);
  }

  private Arbitrary<List<Header>> headers() {
    Arbitrary<String> names = Arbitraries.frequency(Tuple.of(12, "Content-ID"),
        Tuple.of(12, "X-Custom"), Tuple.of(8, "Content-Description"),
        Tuple.of(6, "content-disposition"), Tuple.of(4, "X-Empty"), Tuple.of(1, MALFORMED_NAME));
    Arbitrary<String> values = Arbitraries.strings()
        .withChars("abcXYZ019 \t<>@.;=\",:/()_").ofMaxLength(40);
    return Combinators.combine(names, Arbitraries.of("", " ", "  ", "\t"), values,
        Arbitraries.of(true, false)).as(Header::new).list().ofMaxSize(3);
  }

  /** A leaf's Content-Type: a type and up to three parameters, quoted or not. */
  private Arbitrary<Header> contentType() {
    Arbitrary<String> types = Arbitraries.of("text/plain", "application/octet-stream",
        "image/gif", "application/xop+xml", "Text/XML");
    Arbitrary<String> parameter = Combinators.combine(
        Arbitraries.of("charset", "name", "type", "start", "x-y"),
        Arbitraries.strings().withChars("abcXYZ019-._+ /@\"\\").ofMinLength(1).ofMaxLength(12),
        Arbitraries.of(true, false))
        .as((n, v, quote) -> "; " + n + "=" + (quote || !MediaType.isToken(v)
            ? "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : v));
    // read past under lenient header parsing; mime4j keeps each value as written too
    Arbitrary<String> malformed = Arbitraries.of("; filename==?UTF-8?B?w6Q=?=",
        "; name=a b.pdf", "; x-y=application/xop+xml");
    Arbitrary<String> parameters = Arbitraries.frequencyOf(Tuple.of(30, parameter),
        Tuple.of(1, malformed)).list().ofMaxSize(3).uniqueElements(p -> p.split("=")[0])
        .map(l -> String.join("", l));
    return Combinators.combine(types, parameters, Arbitraries.of(true, false))
        .as((t, p, fold) -> new Header("Content-Type", " ", t + p, fold));
  }

  private Arbitrary<byte[]> body() {
    Arbitrary<String> token = Arbitraries.of("a", "Z", " ", "\t", "-", "--", "--0", "--1.",
        "=", "\r", "\n", "\r\n", "\r\n-", "\n--", "\u00e9", "\u0000", "\u00ff");
    return token.list().ofMaxSize(30).map(l -> String.join("", l)
        .getBytes(StandardCharsets.ISO_8859_1));
  }

  private Arbitrary<String> boundarySuffixes() {
    return Arbitraries.strings().withChars(BCHARS).ofMaxLength(20)
        .filter(s -> !s.endsWith(" "));
  }

  /** Preambles and epilogues: empty, or a line of text (no dashes: nothing like a delimiter). */
  private Arbitrary<String> text() {
    return Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.strings().withChars("abc XYZ.\t").ofMinLength(1).ofMaxLength(20));
  }

  // ---- what the generator leaves out -----------------------------------------------------------

  /**
   * RFC 2046: a delimiter must not occur in a body. mime4j also takes "--" boundary right after a
   * bare LF, and in the middle of a line when its buffer happens to start there, so no body
   * holds a dash-boundary anywhere.
   */
  private static boolean noBoundaryInBodies(Node node, List<String> boundaries) {
    if (node instanceof Leaf leaf) {
      for (String b : boundaries) {
        if (indexOf(leaf.body(), ("--" + b).getBytes(StandardCharsets.ISO_8859_1)) >= 0) {
          return false;
        }
      }
      return true;
    }
    return ((Multi) node).parts().stream().allMatch(p -> noBoundaryInBodies(p, boundaries));
  }

  private static boolean hasMalformed(Node node) {
    boolean here = node.headers().stream().anyMatch(h -> h.name().equals(MALFORMED_NAME)
        || h.name().equals("Content-Type") && (h.value().contains("=?")
            || h.value().contains("=a b") || h.value().contains("=app")));
    return here || node instanceof Multi m && m.parts().stream()
        .anyMatch(MimeDifferentialProperties::hasMalformed);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    return MultipartRoundTripProperties.indexOf(haystack, needle);
  }

  private static int indexOf(byte[] haystack, byte b) {
    return indexOf(haystack, new byte[] {b});
  }
}
