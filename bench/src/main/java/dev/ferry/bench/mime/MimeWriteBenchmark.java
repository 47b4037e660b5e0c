package dev.ferry.bench.mime;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MultipartReader;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.mime.Part;
import jakarta.activation.DataHandler;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.ByteArrayDataSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.apache.cxf.attachment.AttachmentImpl;
import org.apache.cxf.attachment.AttachmentSerializer;
import org.apache.cxf.attachment.ByteDataSource;
import org.apache.cxf.message.Attachment;
import org.apache.cxf.message.Message;
import org.apache.cxf.message.MessageImpl;
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

/**
 * Writes an MTOM message (the SOAP root part of {@link MtomMessage} + one attachment) to a reused
 * in-memory sink, with Ferry's {@link MultipartWriter}, CXF's {@code AttachmentSerializer} and
 * Angus Mail's {@code MimeMultipart.writeTo}; {@link #rawWrite} writes the same message bytes,
 * framed in advance, in one call: the floor. mimepull has no writer (it is a parser only).
 *
 * <p>{@link #setUp} parses each implementation's output back once and checks the attachment.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class MimeWriteBenchmark {
  @Param({"32768", "1048576", "12582912"})
  int size;

  byte[] attachment;
  byte[] framed; // what rawWrite writes: a whole message framed in advance
  ArraySink sink;

  @Setup
  public void setUp() throws Exception {
    attachment = MtomMessage.attachment(size, "random");
    framed = MtomMessage.build(size, "random").message;
    sink = new ArraySink(size + 8192);
    CRC32 want = new CRC32();
    want.update(attachment);
    check("ferry", ferry(), want.getValue());
    check("ferryRelated", ferryRelated(), want.getValue());
    check("cxf", cxf(), want.getValue());
    check("angus", angus(), want.getValue());
    rawWrite();
    if (sink.size != framed.length) {
      throw new IllegalStateException("raw wrote " + sink.size);
    }
  }

  /** Reads {@code sink} back with Ferry's reader; the second part must be the attachment. */
  void check(String name, String contentType, long crc) throws IOException {
    byte[] out = Arrays.copyOf(sink.buf, sink.size);
    MultipartReader r = MultipartReader.open(new ByteArrayInputStream(out),
        MediaType.parse(contentType));
    r.nextPart().body().transferTo(OutputStream.nullOutputStream());
    Part att = r.nextPart();
    CRC32 got = new CRC32();
    byte[] b = new byte[16384];
    long n = 0;
    try (InputStream in = att.body()) {
      for (int k; (k = in.read(b)) >= 0; ) {
        got.update(b, 0, k);
        n += k;
      }
    }
    if (n != attachment.length || got.getValue() != crc || r.nextPart() != null) {
      throw new IllegalStateException(name + " wrote an attachment of " + n + " bytes, crc "
          + Long.toHexString(got.getValue()) + "; expected " + attachment.length);
    }
  }

  @Benchmark
  public int rawWrite() throws IOException {
    ArraySink out = sink.reset();
    out.write(framed);
    return out.size;
  }

  @Benchmark
  public String ferry() throws IOException {
    ArraySink out = sink.reset();
    MultipartWriter w = new MultipartWriter(out);
    String rootId = w.nextContentId();
    String attId = w.nextContentId();
    MediaType ct = w.contentType("related", "type", "application/xop+xml",
        "start", "<" + rootId + ">", "start-info", "text/xml");
    w.writePart(MimeHeaders.builder()
        .add("Content-Type", MtomMessage.ROOT_CONTENT_TYPE)
        .add("Content-Transfer-Encoding", "binary")
        .add("Content-ID", "<" + rootId + ">")
        .build(), MtomMessage.ROOT_BODY);
    w.writePart(MimeHeaders.builder()
        .add("Content-Type", "application/octet-stream")
        .add("Content-Transfer-Encoding", "binary")
        .add("Content-ID", "<" + attId + ">")
        .build(), attachment);
    w.close();
    return ct.toString();
  }

  /**
   * The same message through the writer's RFC 2387 calls, the ones {@code XopWriter} uses: the
   * related Content-Type in one step, parts with Content-Type, Content-Transfer-Encoding and
   * Content-ID given as strings (as CXF's serializer takes them from its attachments).
   */
  @Benchmark
  public String ferryRelated() throws IOException {
    ArraySink out = sink.reset();
    MultipartWriter w = new MultipartWriter(out);
    String rootId = w.nextContentId();
    String attId = w.nextContentId();
    MediaType ct = w.relatedContentType("application/xop+xml", rootId, "text/xml");
    w.writePart(MtomMessage.ROOT_CONTENT_TYPE, rootId, MtomMessage.ROOT_BODY);
    w.writePart("application/octet-stream", attId, attachment);
    w.close();
    return ct.toString();
  }

  @Benchmark
  public String cxf() throws IOException {
    ArraySink out = sink.reset();
    Message m = new MessageImpl();
    m.put(Message.CONTENT_TYPE, "text/xml");
    m.setContent(OutputStream.class, out);
    List<Attachment> atts = List.of(new AttachmentImpl(MtomMessage.ATTACHMENT_ID,
        new DataHandler(new ByteDataSource(attachment, "application/octet-stream"))));
    m.setAttachments(atts);
    AttachmentSerializer s = new AttachmentSerializer(m);
    s.writeProlog();
    out.write(MtomMessage.ROOT_BODY);
    s.writeAttachments();
    return (String) m.get(Message.CONTENT_TYPE);
  }

  @Benchmark
  public String angus() throws Exception {
    ArraySink out = sink.reset();
    MimeMultipart mp = new MimeMultipart("related");
    MimeBodyPart root = new MimeBodyPart();
    root.setDataHandler(new DataHandler(
        new ByteArrayDataSource(MtomMessage.ROOT_BODY, MtomMessage.ROOT_CONTENT_TYPE)));
    root.setHeader("Content-Type", MtomMessage.ROOT_CONTENT_TYPE);
    root.setHeader("Content-Transfer-Encoding", "binary");
    root.setContentID("<" + MtomMessage.ROOT_ID + ">");
    mp.addBodyPart(root);
    MimeBodyPart att = new MimeBodyPart();
    att.setDataHandler(new DataHandler(
        new ByteArrayDataSource(attachment, "application/octet-stream")));
    att.setHeader("Content-Type", "application/octet-stream");
    att.setHeader("Content-Transfer-Encoding", "binary");
    att.setContentID("<" + MtomMessage.ATTACHMENT_ID + ">");
    mp.addBodyPart(att);
    mp.writeTo(out);
    return mp.getContentType();
  }

  /** A reusable in-memory sink: one array, no synchronization, reset per operation. */
  static final class ArraySink extends OutputStream {
    byte[] buf;
    int size;

    ArraySink(int capacity) {
      buf = new byte[capacity];
    }

    ArraySink reset() {
      size = 0;
      return this;
    }

    @Override
    public void write(int b) {
      if (size == buf.length) {
        buf = Arrays.copyOf(buf, buf.length * 2);
      }
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (size + len > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + len));
      }
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }
  }
}
