package dev.ferry.bench.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import javax.xml.stream.XMLStreamException;
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
 * The MTOM threshold: one op writes the testMtom request with Ferry and reads it back, the blob
 * either inline base64 ({@code NEVER}: plain XML) or an attachment ({@code ALWAYS}: an XOP
 * package). The size where ALWAYS becomes faster is the time crossover; {@link #main} prints
 * the bytes on the wire for each size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ThresholdBenchmark {
  @Param({"256", "512", "1024", "2048", "4096", "8192", "16384", "65536"})
  public int blobBytes;

  @Param({"NEVER", "ALWAYS"})
  public String policy;

  final Sink sink = new Sink();
  final XopCodec codec = XopCodec.create();
  MtomPolicy mtom;
  ByteString blob;

  @Setup(Level.Trial)
  public void setUp() {
    mtom = policy.equals("NEVER") ? MtomPolicy.NEVER : MtomPolicy.ALWAYS;
    blob = ByteString.of(MtomMessages.blob(blobBytes));
  }

  @Benchmark
  public long writeAndRead() throws IOException, XMLStreamException {
    sink.reset();
    String contentType = MtomMessages.write(codec, sink, mtom, blob);
    return MtomMessages.read(codec, new ByteArrayInputStream(sink.array(), 0, sink.size()),
        contentType);
  }

  /** Prints the bytes on the wire per size and policy (the whole message, MIME framing too). */
  public static void main(String[] args) throws Exception {
    XopCodec codec = XopCodec.create();
    System.out.println("blob_bytes\tNEVER_wire_bytes\tALWAYS_wire_bytes");
    for (int size : new int[] {256, 512, 1024, 2048, 4096, 8192, 16384, 65536}) {
      ByteString blob = ByteString.of(MtomMessages.blob(size));
      long[] wire = new long[2];
      MtomPolicy[] policies = {MtomPolicy.NEVER, MtomPolicy.ALWAYS};
      for (int i = 0; i < 2; i++) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String ct = MtomMessages.write(codec, out, policies[i], blob);
        long seen = MtomMessages.read(codec, new ByteArrayInputStream(out.toByteArray()), ct);
        if (seen != size + MtomMessages.NAME.length()) {
          throw new IllegalStateException(policies[i] + " lost bytes at " + size);
        }
        wire[i] = out.size();
      }
      System.out.println(size + "\t" + wire[0] + "\t" + wire[1]);
    }
  }
}
