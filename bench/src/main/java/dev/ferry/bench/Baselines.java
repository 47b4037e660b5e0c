package dev.ferry.bench;

import java.io.IOException;
import java.io.InputStream;
import org.openjdk.jmh.infra.Blackhole;

/** Shared baseline operations, so every benchmark measures its floor the same way. */
public final class Baselines {
  private Baselines() {}

  /** Reads {@code in} to its end into {@code buffer}; returns the byte count. */
  public static long drain(InputStream in, byte[] buffer, Blackhole bh) throws IOException {
    long total = 0;
    for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
      total += n;
      bh.consume(buffer[0]);
    }
    return total;
  }
}
