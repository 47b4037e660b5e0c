package dev.ferry.bench.mime;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MultipartReader;
import dev.ferry.mime.Part;
import jakarta.mail.BodyPart;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.ByteArrayDataSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.apache.commons.fileupload.MultipartStream;
import org.apache.cxf.attachment.AttachmentDeserializer;
import org.apache.cxf.message.Attachment;
import org.apache.cxf.message.Message;
import org.apache.cxf.message.MessageImpl;
import org.apache.james.mime4j.stream.EntityState;
import org.apache.james.mime4j.stream.MimeConfig;
import org.apache.james.mime4j.stream.MimeTokenStream;
import org.apache.james.mime4j.stream.RecursionMode;
import org.jvnet.mimepull.MIMEConfig;
import org.jvnet.mimepull.MIMEMessage;
import org.jvnet.mimepull.MIMEPart;
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
 * Parses a CXF-framed MTOM message (SOAP root part + one binary attachment) and reads every body
 * byte into one reused 16 KiB buffer, with Ferry and with each peer; {@link #rawRead} reads the
 * same message bytes from a {@link ByteArrayInputStream} into the same buffer: the floor.
 *
 * <p>Each benchmark returns the attachment's byte count; {@link #setUp} checks once, before
 * measuring, that every implementation reads the attachment's exact bytes (CRC-32), and fails
 * the trial otherwise.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class MimeParseBenchmark {
  @Param({"32768", "1048576", "12582912"})
  int size;

  @Param({"random", "adversarial"})
  String body;

  MtomMessage msg;
  final byte[] buffer = new byte[16 * 1024];
  byte[] boundaryBytes;
  MIMEConfig mimepullConfig;

  @Setup
  public void setUp() throws Exception {
    msg = MtomMessage.build(size, body);
    boundaryBytes = MtomMessage.BOUNDARY.getBytes(StandardCharsets.ISO_8859_1);
    mimepullConfig = new MIMEConfig();
    mimepullConfig.setMemoryThreshold(-1L); // keep in memory: never spill to temp files
    verify();
  }

  /** Runs every implementation once with a CRC over what it read; fails loudly on a mismatch. */
  void verify() throws Exception {
    Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating"
        + " Blackholes directly is dangerous.");
    String[] names = {"ferry", "mime4j", "mimepull", "cxf", "fileupload", "angus"};
    for (String name : names) {
      CRC32 crc = new CRC32();
      long n = switch (name) {
        case "ferry" -> ferry(bh, crc);
        case "mime4j" -> mime4j(bh, crc);
        case "mimepull" -> mimepull(bh, crc);
        case "cxf" -> cxf(bh, crc);
        case "fileupload" -> fileupload(bh, crc);
        case "angus" -> angus(bh, crc);
        default -> throw new AssertionError(name);
      };
      if (n != msg.attachment.length || crc.getValue() != msg.attachmentCrc) {
        throw new IllegalStateException(name + " read " + n + " attachment bytes (crc "
            + Long.toHexString(crc.getValue()) + "), expected " + msg.attachment.length
            + " (crc " + Long.toHexString(msg.attachmentCrc) + ") for " + size + "/" + body);
      }
    }
    long raw = rawRead(bh);
    if (raw != msg.message.length) {
      throw new IllegalStateException("raw read " + raw + " of " + msg.message.length);
    }
  }

  /** Reads {@code in} to its end into the reused buffer; returns the byte count. */
  long drain(InputStream in, Blackhole bh, CRC32 crc) throws IOException {
    byte[] b = buffer;
    long total = 0;
    for (int n; (n = in.read(b, 0, b.length)) >= 0; ) {
      total += n;
      bh.consume(b[0]);
      if (crc != null) {
        crc.update(b, 0, n);
      }
    }
    return total;
  }

  @Benchmark
  public long rawRead(Blackhole bh) throws IOException {
    return drain(new ByteArrayInputStream(msg.message), bh, null);
  }

  @Benchmark
  public long ferry(Blackhole bh) throws IOException {
    return ferry(bh, null);
  }

  long ferry(Blackhole bh, CRC32 crc) throws IOException {
    MultipartReader reader = MultipartReader.open(new ByteArrayInputStream(msg.message),
        MediaType.parse(MtomMessage.CONTENT_TYPE));
    Part root = reader.nextPart();
    drain(root.body(), bh, null);
    Part att = reader.nextPart();
    if (!MtomMessage.ATTACHMENT_ID.equals(att.contentId())) {
      throw new IllegalStateException("ferry: attachment Content-ID " + att.contentId());
    }
    long n = drain(att.body(), bh, crc);
    if (reader.nextPart() != null) {
      throw new IllegalStateException("ferry: a third part");
    }
    return n;
  }

  @Benchmark
  public long mime4j(Blackhole bh) throws Exception {
    return mime4j(bh, null);
  }

  long mime4j(Blackhole bh, CRC32 crc) throws Exception {
    MimeTokenStream ts = new MimeTokenStream(MimeConfig.PERMISSIVE);
    ts.setRecursionMode(RecursionMode.M_NO_RECURSE);
    ts.parseHeadless(new ByteArrayInputStream(msg.message), MtomMessage.CONTENT_TYPE);
    int bodies = 0;
    long n = -1;
    for (EntityState s = ts.getState(); s != EntityState.T_END_OF_STREAM; s = ts.next()) {
      if (s == EntityState.T_BODY) {
        if (bodies++ == 0) {
          drain(ts.getInputStream(), bh, null);
        } else {
          n = drain(ts.getInputStream(), bh, crc);
        }
      }
    }
    return n;
  }

  @Benchmark
  public long mimepull(Blackhole bh) throws IOException {
    return mimepull(bh, null);
  }

  long mimepull(Blackhole bh, CRC32 crc) throws IOException {
    try (MIMEMessage mm = new MIMEMessage(new ByteArrayInputStream(msg.message),
        MtomMessage.BOUNDARY, mimepullConfig)) {
      MIMEPart root = mm.getPart(0);
      try (InputStream in = root.readOnce()) {
        drain(in, bh, null);
      }
      MIMEPart att = mm.getPart(1);
      try (InputStream in = att.readOnce()) {
        return drain(in, bh, crc);
      }
    }
  }

  @Benchmark
  public long cxf(Blackhole bh) throws IOException {
    return cxf(bh, null);
  }

  long cxf(Blackhole bh, CRC32 crc) throws IOException {
    Message m = new MessageImpl();
    m.put(Message.CONTENT_TYPE, MtomMessage.CONTENT_TYPE);
    m.setContent(InputStream.class, new ByteArrayInputStream(msg.message));
    new AttachmentDeserializer(m).initializeAttachments();
    try (InputStream root = m.getContent(InputStream.class)) {
      drain(root, bh, null);
    }
    long n = -1;
    for (Attachment a : m.getAttachments()) {
      try (InputStream in = a.getDataHandler().getInputStream()) {
        n = drain(in, bh, crc);
      }
    }
    return n;
  }

  @Benchmark
  public long fileupload(Blackhole bh) throws IOException {
    return fileupload(bh, null);
  }

  long fileupload(Blackhole bh, CRC32 crc) throws IOException {
    MultipartStream ms = new MultipartStream(new ByteArrayInputStream(msg.message),
        boundaryBytes, 4096, null);
    CountingSink sink = new CountingSink(bh, crc);
    if (!ms.skipPreamble()) {
      throw new IllegalStateException("fileupload: no first part");
    }
    ms.readHeaders();
    ms.discardBodyData(); // the root part
    if (!ms.readBoundary()) {
      throw new IllegalStateException("fileupload: no second part");
    }
    ms.readHeaders();
    ms.readBodyData(sink);
    if (ms.readBoundary()) {
      throw new IllegalStateException("fileupload: a third part");
    }
    return sink.count;
  }

  @Benchmark
  public long angus(Blackhole bh) throws Exception {
    return angus(bh, null);
  }

  long angus(Blackhole bh, CRC32 crc) throws Exception {
    MimeMultipart mp = new MimeMultipart(
        new ByteArrayDataSource(msg.message, MtomMessage.CONTENT_TYPE));
    if (mp.getCount() != 2) {
      throw new IllegalStateException("angus: " + mp.getCount() + " parts");
    }
    try (InputStream in = mp.getBodyPart(0).getInputStream()) {
      drain(in, bh, null);
    }
    BodyPart att = mp.getBodyPart(1);
    try (InputStream in = att.getInputStream()) {
      return drain(in, bh, crc);
    }
  }

  /** Counts what commons-fileupload writes to it (fileupload has no public pull stream). */
  static final class CountingSink extends OutputStream {
    final Blackhole bh;
    final CRC32 crc;
    long count;

    CountingSink(Blackhole bh, CRC32 crc) {
      this.bh = bh;
      this.crc = crc;
    }

    @Override
    public void write(int b) {
      count++;
      bh.consume(b);
      if (crc != null) {
        crc.update(b);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len == 0) {
        return;
      }
      count += len;
      bh.consume(b[off]);
      if (crc != null) {
        crc.update(b, off, len);
      }
    }
  }
}
