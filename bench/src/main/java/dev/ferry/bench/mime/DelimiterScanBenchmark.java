package dev.ferry.bench.mime;

import dev.ferry.mime.internal.DelimiterSearch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
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
 * Diagnosis, not a product benchmark: where Ferry's parse time goes. Over the 1 MiB attachment
 * of {@link MtomMessage} in 8 KiB chunks (the reader's direct-read size), compares the floor
 * ({@link #copy}: {@code System.arraycopy} into a reused buffer) with the delimiter search alone
 * ({@link #horspool}: {@code DelimiterSearch.indexIn}, the one the parser uses) and with a
 * prototype that runs four independent Horspool scans interleaved ({@link #horspool4}), to show
 * how much of the search cost is the latency of one dependent load chain.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DelimiterScanBenchmark {
  static final int CHUNK = 8 * 1024;

  @Param({"random", "adversarial", "adversarial-early"})
  String body;

  byte[] data;
  final byte[] buffer = new byte[CHUNK];
  DelimiterSearch search;
  Horspool4 search4;

  @Setup
  public void setUp() {
    data = MtomMessage.attachment(1 << 20, body);
    byte[] delimiter = ("\r\n--" + MtomMessage.BOUNDARY).getBytes(StandardCharsets.ISO_8859_1);
    search = new DelimiterSearch(delimiter);
    search4 = new Horspool4(delimiter);
    if (horspool() != 0 || horspool4() != 0) {
      throw new IllegalStateException("a delimiter was found in the body");
    }
    // check the prototype against the real search on a planted delimiter
    byte[] planted = data.clone();
    for (int at : new int[] {0, 5000, 8191 - delimiter.length, 3 * CHUNK / 4}) {
      byte[] c = Arrays.copyOf(planted, CHUNK);
      System.arraycopy(delimiter, 0, c, at, delimiter.length);
      if (search.indexIn(c, 0, CHUNK) != search4.indexIn(c, 0, CHUNK)) {
        throw new IllegalStateException("horspool4 disagrees at " + at);
      }
    }
  }

  @Benchmark
  public int copy() {
    int x = 0;
    for (int off = 0; off < data.length; off += CHUNK) {
      System.arraycopy(data, off, buffer, 0, CHUNK);
      x += buffer[0];
    }
    return x;
  }

  @Benchmark
  public int horspool() {
    int found = 0;
    for (int off = 0; off < data.length; off += CHUNK) {
      found += search.indexIn(data, off, off + CHUNK) >= 0 ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  public int copyThenHorspool() {
    int found = 0;
    for (int off = 0; off < data.length; off += CHUNK) {
      System.arraycopy(data, off, buffer, 0, CHUNK);
      found += search.indexIn(buffer, 0, CHUNK) >= 0 ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  public int horspool4() {
    int found = 0;
    for (int off = 0; off < data.length; off += CHUNK) {
      found += search4.indexIn(data, off, off + CHUNK) >= 0 ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  public int copyThenHorspool4() {
    int found = 0;
    for (int off = 0; off < data.length; off += CHUNK) {
      System.arraycopy(data, off, buffer, 0, CHUNK);
      found += search4.indexIn(buffer, 0, CHUNK) >= 0 ? 1 : 0;
    }
    return found;
  }

  /**
   * Prototype: the range is cut in four; four Horspool scans run in one loop, so the CPU
   * overlaps their load-lookup-add chains. Same answer as one scan (the first match).
   */
  static final class Horspool4 {
    final byte[] d;
    final int[] skip = new int[256];
    final byte lastByte;

    Horspool4(byte[] delimiter) {
      d = delimiter.clone();
      int m = d.length;
      Arrays.fill(skip, m);
      for (int j = 0; j < m - 1; j++) {
        skip[d[j] & 0xff] = m - 1 - j;
      }
      lastByte = d[m - 1];
    }

    /** The first full delimiter starting in [start, end - m], or -1. */
    int indexIn(byte[] in, int start, int end) {
      int m = d.length;
      int last = m - 1;
      int windows = end - start - last; // number of candidate start positions
      if (windows < 256) {
        return scan(in, start + last, end);
      }
      int q = windows / 4;
      // lane k checks window ends in [s_k, e_k); they tile [start + last, end)
      int s0 = start + last;
      int s1 = s0 + q;
      int s2 = s1 + q;
      int s3 = s2 + q;
      int i0 = s0;
      int i1 = s1;
      int i2 = s2;
      int i3 = s3;
      int[] sk = skip;
      byte lb = lastByte;
      while (i0 < s1 && i1 < s2 && i2 < s3 && i3 < end) {
        byte b0 = in[i0];
        byte b1 = in[i1];
        byte b2 = in[i2];
        byte b3 = in[i3];
        if (b0 == lb | b1 == lb | b2 == lb | b3 == lb
            && (b0 == lb && matchEndingAt(in, i0) || b1 == lb && matchEndingAt(in, i1)
                || b2 == lb && matchEndingAt(in, i2) || b3 == lb && matchEndingAt(in, i3))) {
          break; // a real delimiter: finish each lane with the plain scan, in order
        }
        i0 += sk[b0 & 0xff];
        i1 += sk[b1 & 0xff];
        i2 += sk[b2 & 0xff];
        i3 += sk[b3 & 0xff];
      }
      int r = scanTo(in, i0, s1);
      if (r >= 0) {
        return r;
      }
      r = scanTo(in, i1, s2);
      if (r >= 0) {
        return r;
      }
      r = scanTo(in, i2, s3);
      if (r >= 0) {
        return r;
      }
      return scan(in, i3, end);
    }

    private boolean matchEndingAt(byte[] in, int i) {
      int last = d.length - 1;
      return Arrays.equals(in, i - last, i, d, 0, last);
    }

    /** Horspool from window end {@code i} while the window end is below {@code endLimit}. */
    private int scanTo(byte[] in, int i, int endLimit) {
      int last = d.length - 1;
      while (i < endLimit) {
        byte b = in[i];
        if (b == lastByte && Arrays.equals(in, i - last, i, d, 0, last)) {
          return i - last;
        }
        i += skip[b & 0xff];
      }
      return -1;
    }

    private int scan(byte[] in, int i, int end) {
      return scanTo(in, i, end);
    }
  }
}
