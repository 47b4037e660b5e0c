package dev.ferry.bench.wss;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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

/**
 * Reading a received MTOM message (a 1 KiB Body signed with RSA-SHA256) and verifying it, with
 * an attachment of {@code attachmentBytes} beside the Body. The target: the same cost
 * with a 12 MiB attachment as with none (within 10%), since only the envelope is verified and the
 * attachment is never read for it. (No Timestamp: the same message is verified again and again,
 * which a signed Timestamp's replay check would refuse.)
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Benchmark)
public class WsSecurityVerifyBenchmark {
  @Param({"0", "12582912"})
  public int attachmentBytes;

  private final SoapCodec codec = SoapCodec.create();
  private WsSecurity verifier;
  private ByteString message;
  private String contentType;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    WsSecurityPolicy signed = WsSecurityPolicy.builder().signBody().build();
    WsSecurity signer = WsSecurity.builder().outbound(signed).credentials(WssKeys.client())
        .build();
    verifier = WsSecurity.builder().inbound(signed).credentials(WssKeys.service()).build();
    byte[] attachment = new byte[attachmentBytes];
    Random random = new Random(7);
    random.nextBytes(attachment);
    String text = "x".repeat(1024);
    Payload p = signer.protect(codec.payload(SoapVersion.SOAP_11, MtomPolicy.ALWAYS, List.of(),
        w -> {
          w.writeStartElement("o", "order", "urn:bench");
          w.writeNamespace("o", "urn:bench");
          w.writeStartElement("o", "text", "urn:bench");
          w.writeCharacters(text);
          w.writeEndElement();
          if (attachment.length > 0) {
            w.writeStartElement("o", "scan", "urn:bench");
            w.writeBinary(attachment, 0, attachment.length, "application/octet-stream");
            w.writeEndElement();
          }
          w.writeEndElement();
        }));
    ByteStringBuilder out = new ByteStringBuilder(attachmentBytes + 8192);
    p.writeTo(out.asOutputStream());
    message = out.toByteString();
    contentType = p.contentType();
    verify(); // fails here, not in the measurement, if the set-up is wrong
  }

  @Benchmark
  public Object verify() throws Exception {
    try (MessageBuffer b = codec.read(message.asInputStream(), contentType)) {
      return verifier.open(b.toMessage()).principal();
    }
  }
}
