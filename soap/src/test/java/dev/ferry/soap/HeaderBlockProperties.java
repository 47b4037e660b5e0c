package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import javax.xml.namespace.QName;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A text block's bytes, encoded in one pass from cached tags, are exactly what escaping the
 * text and encoding the whole element as one string gives, for any text (markup characters,
 * every UTF-8 length, lone and paired surrogates) and any name.
 */
class HeaderBlockProperties {

  @Property(tries = 2000)
  void textBlockMatchesStringEncoding(@ForAll("texts") String text,
      @ForAll("names") QName name) {
    String prefix = name.getPrefix().isEmpty() ? "h" : name.getPrefix();
    String qualified = prefix + ":" + name.getLocalPart();
    String expected = "<" + qualified + " xmlns:" + prefix + "=\""
        + HeaderBlock.escape(name.getNamespaceURI()) + "\">" + HeaderBlock.escape(text) + "</"
        + qualified + ">";

    HeaderBlock block = HeaderBlock.text(name, text);

    assertThat(block.xml()).isEqualTo(ByteString.encodeUtf8(expected));
    assertThat(block.text()).isEqualTo(text);
    assertThat(block.name()).isEqualTo(name);
  }

  @Test
  void blockOfTheSameNameTwiceIsEncodedTheSame() {
    QName to = Addressing.TO;
    assertThat(HeaderBlock.text(to, "a&b").xml().utf8())
        .isEqualTo("<wsa:To xmlns:wsa=\"" + Addressing.NS + "\">a&amp;b</wsa:To>");
    assertThat(HeaderBlock.text(to, "é\uD83D\uDE00").xml().utf8())
        .isEqualTo("<wsa:To xmlns:wsa=\"" + Addressing.NS + "\">é\uD83D\uDE00</wsa:To>");
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.strings().withChars("&<>\"'a\u00e9\u07ff\u0800\uffff\uD83D\uDE00\uDC00")
        .withCharRange('\u0000', '\uffff').ofMaxLength(40);
  }

  @Provide
  Arbitrary<QName> names() {
    Arbitrary<String> ns = Arbitraries.of("urn:a", "http://x/?a=1&b=\"2\"", "urn:\u00e9t\u00e9");
    Arbitrary<String> local = Arbitraries.of("To", "Trace", "\u00e9l\u00e9ment");
    Arbitrary<String> prefix = Arbitraries.of("", "wsa", "p\u00e9");
    return Combinators.combine(ns, local, prefix).as(QName::new);
  }
}
