package dev.ferry.bench.soap;

import static dev.ferry.bench.soap.BrokerMessages.CONTENT_TYPE;
import static dev.ferry.bench.soap.BrokerMessages.NEW_TO;
import static dev.ferry.bench.soap.BrokerMessages.WSA;

import com.sun.xml.ws.api.SOAPVersion;
import com.sun.xml.ws.api.addressing.AddressingVersion;
import com.sun.xml.ws.api.message.AddressingUtils;
import com.sun.xml.ws.api.message.Headers;
import com.sun.xml.ws.api.message.Packet;
import com.sun.xml.ws.api.pipe.Codecs;
import com.sun.xml.ws.api.pipe.StreamSOAPCodec;
import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.SoapCodec;
import jakarta.xml.soap.MessageFactory;
import jakarta.xml.soap.MimeHeaders;
import jakarta.xml.soap.SOAPConstants;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPHeader;
import jakarta.xml.soap.SOAPMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;
import javax.xml.transform.dom.DOMSource;
import org.apache.axiom.om.OMCloneOptions;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPModelBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a broker does per message, side by side, from where a user starts: read the envelope
 * from the stream it arrives on (with a Content-Length, {@code ferry}, or chunked, {@code
 * ferryChunked}; the peers read the same stream), read wsa:Action, optionally replace wsa:To,
 * copy, write the copy to a reused sink. The floor is one arraycopy of the envelope into the
 * same sink. Ops check nothing; {@link BenchChecks} runs every implementation once and fails if
 * an output is wrong. Allocation per call: {@code -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BrokerCopyBenchmark {
  static final QName ACTION = new QName(WSA, "Action");
  static final QName TO = new QName(WSA, "To");
  static final QName HEADER = new QName(BrokerMessages.SOAP12, "Header");

  /** The received message: body size only. */
  @State(Scope.Benchmark)
  public static class Input {
    @Param({"1024", "65536", "1048576"})
    public int bodyBytes;

    public byte[] envelope;
    public ByteString envelopeBytes;

    @Setup(Level.Trial)
    public void setUp() {
      envelope = BrokerMessages.envelope(bodyBytes);
      envelopeBytes = ByteString.of(envelope);
    }
  }

  /** Whether the broker rewrites wsa:To on the copy. */
  @State(Scope.Benchmark)
  public static class Change {
    @Param({"false", "true"})
    public boolean changeTo;
  }

  /** The codecs and factories, built once, and the reused sink. */
  @State(Scope.Thread)
  public static class Peers {
    public final SoapCodec ferry = SoapCodec.create();
    public final Sink sink = new Sink();
    MessageFactory saaj;
    StreamSOAPCodec metro;

    @Setup(Level.Trial)
    public void setUp() throws SOAPException {
      saaj = MessageFactory.newInstance(SOAPConstants.SOAP_1_2_PROTOCOL);
      metro = Codecs.createSOAPEnvelopeXmlCodec(SOAPVersion.SOAP_12);
    }
  }

  @Benchmark
  public int floorArraycopy(Input in, Peers p) {
    p.sink.reset();
    p.sink.write(in.envelope, 0, in.envelope.length);
    return p.sink.size();
  }

  /**
   * The floor of receiving and forwarding from a stream: the bytes read into an array of their
   * own (as any receiver must hold them: allocated, zeroed, filled) and written to the sink.
   */
  @Benchmark
  public int floorReceive(Input in, Peers p) throws IOException {
    byte[] own = new byte[in.envelope.length];
    new ByteArrayInputStream(in.envelope).readNBytes(own, 0, own.length);
    p.sink.reset();
    p.sink.write(own, 0, own.length);
    return p.sink.size();
  }

  @Benchmark
  public int ferry(Input in, Change c, Peers p, Blackhole bh) throws IOException {
    return ferry(in, c.changeTo, p, bh);
  }

  /** As a server reads a request that came with a Content-Length: from the socket's stream. */
  static int ferry(Input in, boolean changeTo, Peers p, Blackhole bh) throws IOException {
    return forward(p.ferry.read(new ByteArrayInputStream(in.envelope), CONTENT_TYPE,
        in.envelope.length), changeTo, p, bh);
  }

  @Benchmark
  public int ferryChunked(Input in, Change c, Peers p, Blackhole bh) throws IOException {
    return ferryChunked(in, c.changeTo, p, bh);
  }

  /** As a server reads a chunked request: from the stream, its length unknown. */
  static int ferryChunked(Input in, boolean changeTo, Peers p, Blackhole bh)
      throws IOException {
    return forward(p.ferry.read(new ByteArrayInputStream(in.envelope), CONTENT_TYPE), changeTo,
        p, bh);
  }

  /** Closes the buffer as a reader must: its root's bytes count against the codec's limit. */
  private static int forward(MessageBuffer buf, boolean changeTo, Peers p, Blackhole bh)
      throws IOException {
    try (buf) {
      Message m = buf.toMessage();
      bh.consume(m.addressing().action());
      Message copy = m.copy();
      if (changeTo) {
        copy.addressing().setTo(NEW_TO);
      }
      p.sink.reset();
      copy.writeTo(p.sink);
      return p.sink.size();
    }
  }

  @Benchmark
  public int saaj(Input in, Change c, Peers p, Blackhole bh) throws Exception {
    return saaj(in, c.changeTo, p, bh);
  }

  static int saaj(Input in, boolean changeTo, Peers p, Blackhole bh) throws Exception {
    MimeHeaders mh = new MimeHeaders();
    mh.addHeader("Content-Type", CONTENT_TYPE);
    SOAPMessage m = p.saaj.createMessage(mh, new ByteArrayInputStream(in.envelope));
    bh.consume(first(m.getSOAPHeader(), ACTION).getTextContent());
    SOAPMessage copy = p.saaj.createMessage();
    copy.getSOAPPart().setContent(new DOMSource(m.getSOAPPart()));
    if (changeTo) {
      first(copy.getSOAPHeader(), TO).setTextContent(NEW_TO);
    }
    p.sink.reset();
    copy.writeTo(p.sink);
    return p.sink.size();
  }

  static Element first(SOAPHeader h, QName name) {
    NodeList l = h.getElementsByTagNameNS(name.getNamespaceURI(), name.getLocalPart());
    return (Element) l.item(0);
  }

  @Benchmark
  public int axiom(Input in, Change c, Peers p, Blackhole bh) throws XMLStreamException {
    return axiom(in, c.changeTo, p, bh);
  }

  static int axiom(Input in, boolean changeTo, Peers p, Blackhole bh)
      throws XMLStreamException {
    SOAPModelBuilder b = OMXMLBuilderFactory.createSOAPModelBuilder(
        new ByteArrayInputStream(in.envelope), "UTF-8");
    SOAPEnvelope e = b.getSOAPEnvelope();
    bh.consume(e.getHeader().getFirstChildWithName(ACTION).getText());
    // the clone of a SOAPEnvelope is a plain OMElement (same tree, no SOAP typing)
    OMElement copy = (OMElement) e.clone(new OMCloneOptions());
    if (changeTo) {
      copy.getFirstChildWithName(HEADER).getFirstChildWithName(TO).setText(NEW_TO);
    }
    p.sink.reset();
    copy.serialize(p.sink);
    b.close();
    return p.sink.size();
  }

  @Benchmark
  public int metro(Input in, Change c, Peers p, Blackhole bh) throws IOException {
    return metro(in, c.changeTo, p, bh);
  }

  static int metro(Input in, boolean changeTo, Peers p, Blackhole bh) throws IOException {
    Packet packet = new Packet();
    p.metro.decode(new ByteArrayInputStream(in.envelope), CONTENT_TYPE, packet);
    com.sun.xml.ws.api.message.Message m = packet.getMessage();
    bh.consume(AddressingUtils.getAction(m.getHeaders(), AddressingVersion.W3C,
        SOAPVersion.SOAP_12));
    com.sun.xml.ws.api.message.Message copy = m.copy();
    if (changeTo) {
      copy.getHeaders().remove(TO);
      copy.getHeaders().add(Headers.create(TO, NEW_TO));
    }
    p.sink.reset();
    p.metro.encode(new Packet(copy), p.sink);
    return p.sink.size();
  }

  /** Runs every implementation once and checks its output; throws if one is wrong. */
  public static void check(Input in, Peers p, Blackhole bh) throws Exception {
    for (boolean change : new boolean[] {false, true}) {
      String want = change ? NEW_TO : BrokerMessages.OLD_TO;
      ferry(in, change, p, bh);
      verify("ferry", p.sink, want, in);
      saaj(in, change, p, bh);
      verify("saaj", p.sink, want, in);
      axiom(in, change, p, bh);
      verify("axiom", p.sink, want, in);
      metro(in, change, p, bh);
      verify("metro", p.sink, want, in);
    }
  }

  private static void verify(String who, Sink sink, String to, Input in) {
    String out = new String(sink.toByteArray(), StandardCharsets.UTF_8);
    if (!out.contains(to) || !out.contains(BrokerMessages.ACTION) || !out.contains("</t:echo>")
        || !out.contains("The quick brown fox") || out.length() < in.bodyBytes) {
      throw new IllegalStateException(who + " wrote a wrong copy (" + out.length()
          + " chars): " + out.substring(0, Math.min(800, out.length())));
    }
  }
}
