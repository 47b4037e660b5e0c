package dev.ferry.jaxws.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.Base64;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jvnet.staxex.Base64Data;

/**
 * What JAXB is handed for element text: the bytes of canonical base64 (and the same text again
 * through {@code toString()}), anything else as the text itself, whatever comments and CDATA
 * sections split it.
 */
class BinaryStaxReaderProperties {
  private static final XMLInputFactory XML = new com.ctc.wstx.stax.WstxInputFactory();

  /** The PCDATA the reader gives for the text of {@code <e>...</e>}. */
  static CharSequence pcdata(String content) throws Exception {
    XMLStreamReader r = new BinaryStaxReader(XML.createXMLStreamReader(new StringReader(
        "<e>" + content + "</e>")));
    r.nextTag();
    int e = r.next();
    if (content.isEmpty()) {
      assertThat(e).isEqualTo(XMLStreamConstants.END_ELEMENT);
      return "";
    }
    assertThat(e).isEqualTo(XMLStreamConstants.CHARACTERS);
    CharSequence text = ((BinaryStaxReader) r).getPCDATA();
    assertThat(r.next()).isEqualTo(XMLStreamConstants.END_ELEMENT);
    return text;
  }

  @Property(tries = 200)
  void bytesComeBackAsTheBytesAndTheirText(@ForAll byte[] bytes, @ForAll @IntRange(min = 0,
      max = 3) int pieces) throws Exception {
    String b64 = Base64.getEncoder().encodeToString(bytes);
    CharSequence got = pcdata(split(b64, pieces));
    assertThat(got.toString()).isEqualTo(b64);
    if (b64.length() >= BinaryStaxReader.MIN_CHARS) {
      assertThat(got).isInstanceOf(Base64Data.class);
      assertThat(((Base64Data) got).getExact()).isEqualTo(bytes);
    }
  }

  @Property(tries = 300)
  void anyTextOfTheAlphabetReadsAsItself(@ForAll("alphabetTexts") String text) throws Exception {
    assertThat(pcdata(text).toString()).isEqualTo(text);
  }

  @Provide
  Arbitrary<String> alphabetTexts() {
    Arbitrary<String> body = Arbitraries.strings().withChars(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").ofMinLength(1000)
        .ofMaxLength(1100);
    Arbitrary<String> tail = Arbitraries.of("", "=", "==", "A=", "Q==", "QR==", "QQ==", "AB=",
        "AE=", " ", "\n", "-_", "\u00e9");
    return net.jqwik.api.Combinators.combine(body, tail).as(String::concat);
  }

  /** {@code s} as element content split into up to three pieces by a comment and a CDATA. */
  private static String split(String s, int pieces) {
    if (pieces == 0 || s.length() < 3) {
      return s;
    }
    int a = s.length() / 3;
    int b = 2 * s.length() / 3;
    return pieces == 1 ? s.substring(0, a) + "<!-- c -->" + s.substring(a)
        : s.substring(0, a) + "<!-- c --><![CDATA[" + s.substring(a, b) + "]]>"
            + s.substring(b);
  }
}
