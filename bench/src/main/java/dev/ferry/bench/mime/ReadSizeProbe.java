package dev.ferry.bench.mime;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MultipartReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.TreeMap;

/**
 * Diagnosis: how the 1 MiB attachment arrives when read into a 16 KiB buffer (sizes returned by
 * each {@code read}), random vs adversarial body. Run: {@code java -cp bench/target/benchmarks.jar
 * dev.ferry.bench.mime.ReadSizeProbe}.
 */
public final class ReadSizeProbe {
  private ReadSizeProbe() {}

  public static void main(String[] a) throws Exception {
    for (String body : new String[] {"random", "adversarial"}) {
      MtomMessage m = MtomMessage.build(1 << 20, body);
      MultipartReader r = MultipartReader.open(new ByteArrayInputStream(m.message),
          MediaType.parse(MtomMessage.CONTENT_TYPE));
      r.nextPart().body().transferTo(OutputStream.nullOutputStream());
      InputStream in = r.nextPart().body();
      byte[] b = new byte[16384];
      TreeMap<Integer, Integer> hist = new TreeMap<>();
      int calls = 0;
      for (int n; (n = in.read(b, 0, b.length)) >= 0; ) {
        calls++;
        int bucket = n <= 64 ? 64 : n < 8000 ? 8000 : n;
        hist.merge(bucket, 1, Integer::sum);
      }
      System.out.println(body + ": " + calls + " reads; by size (<=64, <8000, exact): " + hist);
    }
  }
}
