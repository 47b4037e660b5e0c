package dev.ferry.bytes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.testkit.Allocations;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** A spool's stream in memory: its bulk reads return what a byte-at-a-time read returns. */
class SpoolStreamProperties {

  /** After any first read, the rest read whole, in n bytes, or passed on is the rest. */
  @Property(tries = 300)
  void bulkReadsReturnTheRest(@ForAll @IntRange(min = 0, max = 200_000) int size,
      @ForAll @IntRange(min = 0, max = 200_000) int first,
      @ForAll @IntRange(min = 0, max = 300_000) int n, @ForAll long seed) throws IOException {
    byte[] data = random(size, seed);
    try (Spool spool = Spool.builder().memoryThresholdBytes(1 << 20).build()) {
      for (int off = 0; off < size; off += 5000) { // many chunks
        spool.write(data, off, Math.min(5000, size - off));
      }
      int skip = Math.min(first, size);
      byte[] rest = Arrays.copyOfRange(data, skip, size);

      InputStream a = opened(spool, skip);
      assertThat(a.available()).isEqualTo(rest.length);
      assertThat(a.readAllBytes()).isEqualTo(rest);
      assertThat(a.read()).isEqualTo(-1);

      InputStream b = opened(spool, skip);
      assertThat(b.readNBytes(n)).isEqualTo(Arrays.copyOf(rest, Math.min(n, rest.length)));
      assertThat(b.readAllBytes())
          .isEqualTo(Arrays.copyOfRange(rest, Math.min(n, rest.length), rest.length));

      InputStream c = opened(spool, skip);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertThat(c.transferTo(out)).isEqualTo(rest.length);
      assertThat(out.toByteArray()).isEqualTo(rest);
      assertThat(c.transferTo(out)).isZero();
    }
  }

  /** Reading a 32 KiB attachment whole allocates it once, passing it on nothing. */
  @Test
  void readingWholeCopiesOnceAndPassingOnCopiesNothing() throws IOException {
    byte[] data = random(32 * 1024, 7);
    try (Spool spool = Spool.builder().memoryThresholdBytes(1 << 20).build()) {
      spool.write(data);
      long leastRead = Long.MAX_VALUE;
      long leastTransfer = Long.MAX_VALUE;
      for (int i = 0; i < 20; i++) {
        InputStream in = spool.openStream();
        long before = Allocations.currentThread();
        in.readAllBytes();
        leastRead = Math.min(leastRead, Allocations.currentThread() - before);
        InputStream again = spool.openStream();
        before = Allocations.currentThread();
        again.transferTo(OutputStream.nullOutputStream());
        leastTransfer = Math.min(leastTransfer, Allocations.currentThread() - before);
      }
      assertThat(leastRead).as("readAllBytes read chunks and joined them").isLessThan(34 * 1024);
      assertThat(leastTransfer).as("InputStream.transferTo made a 16 KiB buffer").isLessThan(2048);
    }
  }

  private static InputStream opened(Spool spool, int skip) throws IOException {
    InputStream in = spool.openStream();
    byte[] one = new byte[1];
    for (int i = 0; i < Math.min(skip, 3); i++) { // a few single bytes, then one bulk read
      in.read(one, 0, 1);
    }
    in.readNBytes(new byte[Math.max(0, skip - 3)], 0, Math.max(0, skip - 3));
    return in;
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }
}
