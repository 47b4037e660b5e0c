package dev.ferry.xop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.UnaryOperator;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every XML limit, when hit, is reported as a limit violation that names it. */
class XmlLimitErrorsTest {
  private static XopCodec codec(UnaryOperator<XmlLimits.Builder> limit) {
    return XopCodec.builder().limits(XopLimits.builder()
        .xml(limit.apply(XmlLimits.builder()).build()).build()).build();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "XmlLimits.maxDepth|<a><b><c><d/></c></b></a>",
      "XmlLimits.maxAttributesPerElement|<a x='1' y='2' z='3'/>",
      "XmlLimits.maxAttributeBytes|<a x='12345678901234'/>",
      "XmlLimits.maxTextBytes|<a>12345678901234</a>",
      "XmlLimits.maxChildrenPerElement|<a><b/><b/><b/></a>",
  })
  void aHitLimitIsNamed(String limit, String xml) throws Exception {
    XopCodec small = codec(b -> switch (limit) {
      case "XmlLimits.maxDepth" -> b.maxDepth(3);
      case "XmlLimits.maxAttributesPerElement" -> b.maxAttributesPerElement(2);
      case "XmlLimits.maxAttributeBytes" -> b.maxAttributeBytes(10);
      case "XmlLimits.maxTextBytes" -> b.maxTextBytes(10);
      default -> b.maxChildrenPerElement(2);
    });
    try (XopPackage pkg = XopTestSupport.read(small, "text/xml", xml)) {
      XMLStreamException e = assertThrows(XMLStreamException.class, () -> {
        XopReader r = pkg.newXmlReader();
        while (r.hasNext()) {
          r.next();
          if (r.hasText()) {
            r.getText();
          }
        }
      });
      XopException x = XopReader.translate(e, "root");
      assertThat(x.isLimitExceeded()).isTrue();
      assertThat(x.limitName()).isEqualTo(limit);
      assertThat(x.byteOffset()).isNotNegative();
    }
  }
}
