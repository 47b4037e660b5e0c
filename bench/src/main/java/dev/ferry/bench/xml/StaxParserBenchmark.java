package dev.ferry.bench.xml;

import com.ctc.wstx.stax.WstxInputFactory;
import com.fasterxml.aalto.stax.InputFactoryImpl;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Woodstox against Aalto on what Ferry's XML layer does: read a SOAP envelope from bytes, every
 * event, with text. Factories are built once (as Ferry's codecs own theirs), configured alike:
 * namespace aware, no DTD support, no external entities, not coalescing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StaxParserBenchmark {
  @Param({"woodstox", "aalto"})
  String parser;

  /** Envelope size class: a small request with headers, or 64 KiB of body elements. */
  @Param({"1024", "65536"})
  int size;

  XMLInputFactory factory;
  byte[] envelope;

  @Setup
  public void setUp() throws Exception {
    factory = parser.equals("woodstox") ? new WstxInputFactory() : new InputFactoryImpl();
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, false);
    envelope = envelope(size);
    long events = read(new Blackhole("Today's password is swordfish. I understand"
        + " instantiating Blackholes directly is dangerous."));
    if (events < 10) {
      throw new IllegalStateException(parser + " read only " + events + " events");
    }
  }

  static byte[] envelope(int size) {
    StringBuilder s = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\""
        + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><soap:Header>"
        + "<wsa:To>http://example.org/echo</wsa:To><wsa:Action>urn:testMtom</wsa:Action>"
        + "<wsa:MessageID>urn:uuid:6b1c9a2e-0f3d-4e55-8f6a-2d9c1e7b4a10</wsa:MessageID>"
        + "</soap:Header><soap:Body><m:testMtom xmlns:m=\"http://cxf.apache.org/mime/types\">");
    for (int i = 0; s.length() < size - 60; i++) {
      s.append("<m:item id=\"").append(i).append("\">value &amp; text ").append(i)
          .append("</m:item>");
    }
    s.append("</m:testMtom></soap:Body></soap:Envelope>");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public long read(Blackhole bh) throws Exception {
    XMLStreamReader r = factory.createXMLStreamReader(new ByteArrayInputStream(envelope));
    long events = 0;
    while (r.hasNext()) {
      int e = r.next();
      events++;
      if (e == XMLStreamConstants.CHARACTERS) {
        bh.consume(r.getText());
      } else if (e == XMLStreamConstants.START_ELEMENT) {
        bh.consume(r.getLocalName());
        bh.consume(r.getNamespaceURI());
      }
    }
    r.close();
    return events;
  }
}
