package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random envelopes, copied and changed: the copy writes what the change says, byte for byte
 * where nothing changed, and the original is left as it was.
 */
class MessageCopyProperties {
  static final SoapCodec SOAP = SoapCodec.create();

  record Block(String ns, String local, String text, boolean mustUnderstand) {}

  record Change(int kind, String value) {} // 0: set wsa:To, 1: remove first name, 2: add a block

  @Property(tries = 300)
  void copyThenChange(@ForAll boolean soap12, @ForAll("prefixes") String prefix,
      @ForAll("blocks") List<Block> blocks, @ForAll("texts") String bodyText,
      @ForAll("changes") List<Change> changes, @ForAll("spaces") String space) throws Exception {
    SoapVersion v = soap12 ? SoapVersion.SOAP_12 : SoapVersion.SOAP_11;
    String xml = envelope(v, prefix, blocks, bodyText, space);
    MessageBuffer buf = SOAP.parse(ByteString.encodeUtf8(xml));
    assertThat(buf.headers()).extracting(HeaderBlock::text)
        .containsExactlyElementsOf(blocks.stream().map(Block::text).toList());
    Message original = buf.toMessage();
    Message copy = original.copy();
    List<QName> expectedNames = new ArrayList<>(blocks.stream()
        .map(b -> new QName(b.ns(), b.local())).toList());
    List<String> expectedTexts = new ArrayList<>(blocks.stream().map(Block::text).toList());
    for (Change c : changes) {
      apply(c, copy, expectedNames, expectedTexts);
    }
    ByteString written = copy.toByteString();
    MessageBuffer reread = SOAP.parse(written);
    assertThat(reread.headers()).extracting(HeaderBlock::name).containsExactlyElementsOf(
        expectedNames);
    assertThat(reread.headers()).extracting(HeaderBlock::text).containsExactlyElementsOf(
        expectedTexts);
    assertThat(reread.body()).isEqualTo(buf.body());
    assertThat(original.toByteString().utf8()).isEqualTo(xml);
    if (changes.isEmpty()) {
      assertThat(written.utf8()).isEqualTo(xml);
    }
  }

  private static void apply(Change c, Message m, List<QName> names, List<String> texts) {
    switch (c.kind()) {
      case 0 -> {
        m.addressing().setTo(c.value());
        int at = names.indexOf(Addressing.TO);
        while (names.lastIndexOf(Addressing.TO) != at) {
          int last = names.lastIndexOf(Addressing.TO);
          names.remove(last);
          texts.remove(last);
        }
        if (at < 0) {
          names.add(Addressing.TO);
          texts.add(c.value());
        } else {
          texts.set(at, c.value());
        }
      }
      case 1 -> {
        if (!names.isEmpty()) {
          QName first = names.get(0);
          m.removeHeaders(first);
          for (int i = names.size() - 1; i >= 0; i--) {
            if (names.get(i).equals(first)) {
              names.remove(i);
              texts.remove(i);
            }
          }
        }
      }
      default -> {
        QName n = new QName("urn:added", "Added", "ad");
        m.addHeader(HeaderBlock.text(n, c.value()));
        names.add(n);
        texts.add(c.value());
      }
    }
  }

  static String envelope(SoapVersion v, String prefix, List<Block> blocks, String body,
      String space) {
    String p = prefix.isEmpty() ? "" : prefix + ":";
    String decl = prefix.isEmpty() ? "xmlns=\"" + v.namespace() + "\""
        : "xmlns:" + prefix + "=\"" + v.namespace() + "\"";
    StringBuilder s = new StringBuilder("<" + p + "Envelope " + decl + ">" + space);
    if (!blocks.isEmpty()) {
      s.append("<").append(p).append("Header>");
      for (Block b : blocks) {
        s.append(space).append("<h:").append(b.local()).append(" xmlns:h=\"").append(b.ns())
            .append("\"").append(b.mustUnderstand() ? " " + (prefix.isEmpty() ? "xmlns:e=\""
                + v.namespace() + "\" e" : prefix) + ":mustUnderstand=\"1\"" : "").append(">")
            .append(HeaderBlock.escape(b.text())).append("</h:").append(b.local()).append(">");
      }
      s.append(space).append("</").append(p).append("Header>").append(space);
    }
    s.append("<").append(p).append("Body><m:x xmlns:m=\"urn:m\">")
        .append(HeaderBlock.escape(body)).append("</m:x></").append(p).append("Body>")
        .append(space).append("</").append(p).append("Envelope>").append(space);
    return s.toString();
  }

  @Provide
  Arbitrary<String> prefixes() {
    return Arbitraries.of("soap", "s", "env", "SOAP-ENV", "");
  }

  @Provide
  Arbitrary<String> spaces() {
    return Arbitraries.of("", " ", "\n", "\r\n  ", "\t");
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.strings().withCharRange(' ', '~').withChars('é', '€', '日', '&', '<')
        .ofMaxLength(40).map(String::strip);
  }

  @Provide
  Arbitrary<List<Block>> blocks() {
    Arbitrary<Block> wsaTo = texts().map(t -> new Block(Addressing.NS, "To", t, false));
    Arbitrary<Block> other = Combinators.combine(Arbitraries.of("urn:a", "urn:b"),
        Arbitraries.of("One", "Two", "Trace"), texts(), Arbitraries.of(true, false))
        .as(Block::new);
    return Arbitraries.oneOf(wsaTo, other).list().ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<Change>> changes() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), texts()).as(Change::new)
        .list().ofMaxSize(4);
  }
}
