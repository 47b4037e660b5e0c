package dev.ferry.bench.soap;

import com.sun.xml.ws.api.BindingID;
import com.sun.xml.ws.api.SOAPVersion;
import com.sun.xml.ws.api.WSBinding;
import com.sun.xml.ws.api.message.Messages;
import com.sun.xml.ws.api.message.Packet;
import com.sun.xml.ws.api.pipe.Codec;
import com.sun.xml.ws.developer.StreamingAttachmentFeature;
import dev.ferry.bench.Baselines;
import dev.ferry.bytes.ByteString;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.ws.soap.MTOMFeature;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import org.apache.cxf.attachment.AttachmentDeserializer;
import org.apache.cxf.attachment.AttachmentImpl;
import org.apache.cxf.attachment.AttachmentSerializer;
import org.apache.cxf.attachment.AttachmentUtil;
import org.apache.cxf.attachment.ByteDataSource;
import org.apache.cxf.message.Attachment;
import org.apache.cxf.message.Message;
import org.apache.cxf.message.MessageImpl;
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

/**
 * MTOM encode and decode of the testMtom echo request, one blob attached: Ferry's
 * XopWriter/XopCodec, CXF's AttachmentSerializer/AttachmentDeserializer (envelope through
 * Woodstox StAX), Metro's MTOM codec (JAXB bean in, JAXB bean out). Every decoder reads the same
 * package (the one Ferry writes) and takes the blob's bytes; every encoder writes into the same
 * reused sink. All three keep attachments in memory (thresholds raised to 32 MiB), so no temp
 * files are timed. The baseline is one arraycopy of the package.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class MtomCodecBenchmark {
  static final int IN_MEMORY = 32 << 20;

  @Param({"1024", "65536", "1048576", "12582912"})
  public int blobBytes;

  public byte[] blob;
  public ByteString blobBytesView;
  public byte[] pkg;
  public String contentType;
  public final Sink sink = new Sink();
  final byte[] drain = new byte[64 * 1024];
  XopCodec ferry;
  XMLOutputFactory stax = XMLOutputFactory.newFactory();
  XMLInputFactory staxIn = XMLInputFactory.newFactory();
  JAXBContext jaxb;
  Codec metro;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    blob = MtomMessages.blob(blobBytes);
    blobBytesView = ByteString.of(blob);
    ferry = XopCodec.builder().limits(XopLimits.builder().attachmentMemoryBytes(IN_MEMORY)
        .build()).build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    contentType = MtomMessages.write(ferry, out, MtomPolicy.ALWAYS, blobBytesView);
    pkg = out.toByteArray();
    jaxb = JAXBContext.newInstance(MtomMessages.TestMtom.class);
    WSBinding binding = BindingID.SOAP11_HTTP_MTOM.createBinding(new MTOMFeature(true, 0),
        new StreamingAttachmentFeature(null, false, IN_MEMORY));
    metro = BindingID.SOAP11_HTTP_MTOM.createEncoder(binding);
  }

  @Benchmark
  public int rawCopy() {
    sink.reset();
    sink.write(pkg, 0, pkg.length);
    return sink.size();
  }

  @Benchmark
  public int ferryEncode() throws IOException, XMLStreamException {
    sink.reset();
    MtomMessages.write(ferry, sink, MtomPolicy.ALWAYS, blobBytesView);
    return sink.size();
  }

  @Benchmark
  public long ferryDecode() throws IOException, XMLStreamException {
    return MtomMessages.read(ferry, new ByteArrayInputStream(pkg), contentType);
  }

  @Benchmark
  public int cxfEncode() throws IOException, XMLStreamException {
    sink.reset();
    cxfWrite(sink);
    return sink.size();
  }

  String cxfWrite(OutputStream out) throws IOException, XMLStreamException {
    MessageImpl msg = new MessageImpl();
    Collection<Attachment> atts = new ArrayList<>(1);
    String id = "attachinfo-1@cxf.apache.org";
    AttachmentImpl a = new AttachmentImpl(id,
        new DataHandler(new ByteDataSource(blob, "application/octet-stream")));
    a.setXOP(true);
    atts.add(a);
    msg.setAttachments(atts);
    msg.put(Message.CONTENT_TYPE, "text/xml");
    msg.setContent(OutputStream.class, out);
    AttachmentSerializer serializer = new AttachmentSerializer(msg);
    serializer.setXop(true);
    serializer.writeProlog();
    XMLStreamWriter w = stax.createXMLStreamWriter(out, "UTF-8");
    w.writeStartDocument("UTF-8", "1.0");
    w.writeStartElement("soap", "Envelope", MtomMessages.SOAP11);
    w.writeNamespace("soap", MtomMessages.SOAP11);
    w.writeStartElement("soap", "Body", MtomMessages.SOAP11);
    w.writeStartElement("t", "testMtom", MtomMessages.NS);
    w.writeNamespace("t", MtomMessages.NS);
    w.writeStartElement("t", "name", MtomMessages.NS);
    w.writeCharacters(MtomMessages.NAME);
    w.writeEndElement();
    w.writeStartElement("t", "attachinfo", MtomMessages.NS);
    w.writeStartElement("xop", "Include", MtomMessages.XOP_NS);
    w.writeNamespace("xop", MtomMessages.XOP_NS);
    w.writeAttribute("href", "cid:" + id);
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    w.flush();
    w.close();
    serializer.writeAttachments();
    return (String) msg.get(Message.CONTENT_TYPE);
  }

  @Benchmark
  public long cxfDecode() throws IOException, XMLStreamException {
    MessageImpl msg = new MessageImpl();
    msg.put(Message.CONTENT_TYPE, contentType);
    msg.put(AttachmentDeserializer.ATTACHMENT_MEMORY_THRESHOLD, IN_MEMORY);
    msg.setContent(InputStream.class, new ByteArrayInputStream(pkg));
    new AttachmentDeserializer(msg).initializeAttachments();
    XMLStreamReader r = staxIn.createXMLStreamReader(msg.getContent(InputStream.class));
    long seen = 0;
    while (r.hasNext()) {
      if (r.next() != XMLStreamConstants.START_ELEMENT) {
        continue;
      }
      if (r.getLocalName().equals("name")) {
        seen += r.getElementText().length();
      } else if (r.getLocalName().equals("Include")) {
        String href = r.getAttributeValue(null, "href");
        try (InputStream in = AttachmentUtil.getAttachmentDataSource(href,
            msg.getAttachments()).getInputStream()) {
          seen += Baselines.drain(in, drain, BLACKHOLE_FREE);
        }
      }
    }
    r.close();
    return seen;
  }

  @Benchmark
  public int metroEncode() throws IOException {
    sink.reset();
    metroWrite(sink);
    return sink.size();
  }

  String metroWrite(OutputStream out) throws IOException {
    MtomMessages.TestMtom bean = new MtomMessages.TestMtom();
    bean.name = MtomMessages.NAME;
    bean.attachinfo = blob;
    Packet p = new Packet(Messages.create(jaxb, bean, SOAPVersion.SOAP_11));
    p.setMtomFeature(new MTOMFeature(true, 0));
    p.setState(Packet.State.ClientRequest);
    return metro.encode(p, out).getContentType();
  }

  @Benchmark
  public long metroDecode() throws IOException, JAXBException {
    Packet p = new Packet();
    metro.decode(new ByteArrayInputStream(pkg), contentType, p);
    MtomMessages.TestMtom bean = p.getMessage().readPayloadAsJAXB(jaxb.createUnmarshaller());
    return bean.name.length() + bean.attachinfo.length;
  }

  /** Baselines.drain wants a Blackhole; the drained count is returned to JMH instead. */
  static final Blackhole BLACKHOLE_FREE = new Blackhole("Today's password is swordfish. I "
      + "understand instantiating Blackholes directly is dangerous.");

  /** Checks every encoder's output decodes to the blob, and every decoder sees it. */
  public static void check(int size) throws Exception {
    MtomCodecBenchmark b = new MtomCodecBenchmark();
    b.blobBytes = size;
    b.setUp();
    long want = size + MtomMessages.NAME.length();
    expect("ferryDecode", b.ferryDecode(), want);
    expect("cxfDecode", b.cxfDecode(), want);
    expect("metroDecode", b.metroDecode(), want);
    b.sink.reset();
    String ct = b.cxfWrite(b.sink);
    expect("cxfEncode", MtomMessages.read(b.ferry,
        new ByteArrayInputStream(b.sink.toByteArray()), ct), want);
    b.sink.reset();
    ct = b.metroWrite(b.sink);
    if (size > 0 && !ct.contains("application/xop+xml")) {
      throw new IllegalStateException("metroEncode did not write MTOM: " + ct);
    }
    expect("metroEncode", MtomMessages.read(b.ferry,
        new ByteArrayInputStream(b.sink.toByteArray()), ct), want);
    b.sink.reset();
    ct = MtomMessages.write(b.ferry, b.sink, MtomPolicy.ALWAYS, b.blobBytesView);
    expect("ferryEncode", MtomMessages.read(b.ferry,
        new ByteArrayInputStream(b.sink.toByteArray()), ct), want);
  }

  private static void expect(String who, long got, long want) {
    if (got != want) {
      throw new IllegalStateException(who + ": saw " + got + " bytes, want " + want);
    }
  }
}
