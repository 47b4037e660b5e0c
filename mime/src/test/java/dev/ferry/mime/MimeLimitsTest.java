package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** Every limit: passes at the limit, fails just above it naming the limit, allocates nothing far
 * beyond it. */
class MimeLimitsTest {
  private static final long FAR = 200L * 1024 * 1024; // 200 MiB of hostile input, generated

  /** Reads every part of {@code in} to the end. Returns the number of parts. */
  static int readAll(InputStream in, MimeLimits limits) throws IOException {
    int n = 0;
    byte[] buf = new byte[8192];
    try (MultipartReader r = MultipartReader.builder(in, "b").limits(limits).build()) {
      for (Part p; (p = r.nextPart()) != null; n++) {
        while (p.body().read(buf, 0, buf.length) >= 0) {
          // drain
        }
      }
    }
    return n;
  }

  static InputStream ascii(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Checks the three cases for one limit; {@code message(n)} builds input of size n. */
  static void checkLimit(String name, MimeLimits limits, int limit,
      IntFunction<InputStream> message, InputStream farBeyond) throws IOException {
    readAll(message.apply(limit), limits);
    MimeException e = assertThrows(MimeException.class,
        () -> readAll(message.apply(limit + 1), limits));
    assertThat(e.limitName()).isEqualTo("MimeLimits." + name);
    assertThat(e.limitValue()).isEqualTo(limit);
    assertThat(e.actualValue()).isGreaterThan(limit);
    assertThat(e.getMessage()).contains("MimeLimits." + name + " exceeded");
    long before = allocatedBytes();
    MimeException far = assertThrows(MimeException.class, () -> readAll(farBeyond, limits));
    long allocated = allocatedBytes() - before;
    assertThat(far.limitName()).isEqualTo("MimeLimits." + name);
    assertThat(allocated).as("bytes allocated reading far beyond " + name)
        .isLessThan(4L * 1024 * 1024);
  }

  static long allocatedBytes() {
    return dev.ferry.testkit.Allocations.currentThread();
  }

  @Test
  void maxHeaderBytes() throws IOException {
    int limit = 1000;
    MimeLimits limits = MimeLimits.builder().maxHeaderBytes(limit).build();
    // A header section of n bytes: "X: aaa\r\n" then the empty line.
    checkLimit("maxHeaderBytes", limits, limit,
        n -> ascii("--b\r\nX: " + "a".repeat(n - 7) + "\r\n\r\nbody\r\n--b--"),
        Generated.of("--b\r\nX: ", 'a', FAR, "\r\n\r\n\r\n--b--"));
  }

  @Test
  void maxHeaderCount() throws IOException {
    int limit = 50;
    // Header bytes must not be what stops the far case: the count is checked line by line.
    MimeLimits limits = MimeLimits.builder().maxHeaderCount(limit).maxHeaderBytes(1 << 30)
        .build();
    checkLimit("maxHeaderCount", limits, limit,
        n -> ascii("--b\r\n" + "X: 1\r\n".repeat(n) + "\r\nbody\r\n--b--"),
        Generated.of("--b\r\n", "X: 1\r\n", 1_000_000, "\r\n\r\n--b--"));
  }

  @Test
  void maxParts() throws IOException {
    int limit = 20;
    MimeLimits limits = MimeLimits.builder().maxParts(limit).build();
    checkLimit("maxParts", limits, limit,
        n -> ascii("--b\r\n\r\nx\r\n".repeat(n) + "--b--"),
        Generated.of("", "--b\r\n\r\nx\r\n", 10_000_000, "--b--"));
  }

  @Test
  void maxPartBytes() throws IOException {
    int limit = 100_000;
    MimeLimits limits = MimeLimits.builder().maxPartBytes(limit).build();
    checkLimit("maxPartBytes", limits, limit,
        n -> ascii("--b\r\n\r\n" + "z".repeat(n) + "\r\n--b--"),
        Generated.of("--b\r\n\r\n", 'z', FAR, "\r\n--b--"));
  }

  @Test
  void maxMessageBytes() throws IOException {
    int limit = 100_000;
    MimeLimits limits = MimeLimits.builder().maxMessageBytes(limit).build();
    String frame = "--b\r\n\r\n\r\n--b--";
    checkLimit("maxMessageBytes", limits, limit,
        n -> ascii("--b\r\n\r\n" + "z".repeat(n - frame.length()) + "\r\n--b--"),
        Generated.of("--b\r\n\r\n", 'z', FAR, "\r\n--b--"));
  }

  @Test
  void maxPreambleBytes() throws IOException {
    int limit = 5000;
    MimeLimits limits = MimeLimits.builder().maxPreambleBytes(limit).build();
    checkLimit("maxPreambleBytes", limits, limit,
        n -> ascii("p".repeat(n) + "\r\n--b\r\n\r\nx\r\n--b--"),
        Generated.of("", 'p', FAR, "\r\n--b\r\n\r\nx\r\n--b--"));
  }

  @Test
  void maxEpilogueBytesWhenTheEpilogueIsRead() throws IOException {
    int limit = 5000;
    MimeLimits limits = MimeLimits.builder().maxEpilogueBytes(limit).build();
    // The reader stops at the closing delimiter; the push parser, fed the epilogue, counts it.
    for (int n : new int[] {limit, limit + 1}) {
      byte[] in = ("--b\r\n\r\nx\r\n--b--" + "e".repeat(n)).getBytes(StandardCharsets.US_ASCII);
      MultipartParser p = MultipartParser.builder("b").limits(limits).build();
      int pos = 0;
      try {
        while (pos < in.length) {
          p.next(in, pos, in.length);
          pos += p.consumed();
        }
        assertThat(n).isEqualTo(limit);
      } catch (MimeException e) {
        assertThat(n).isEqualTo(limit + 1);
        assertThat(e.limitName()).isEqualTo("MimeLimits.maxEpilogueBytes");
      }
    }
  }

  @Test
  void maxBoundaryLength() throws IOException {
    MimeLimits limits = MimeLimits.builder().maxBoundaryLength(10).build();
    MultipartParser.builder("b".repeat(10)).limits(limits).build();
    MimeException e = assertThrows(MimeException.class,
        () -> MultipartParser.builder("b".repeat(11)).limits(limits).build());
    assertThat(e.limitName()).isEqualTo("MimeLimits.maxBoundaryLength");
    assertThat(MimeLimits.DEFAULTS.maxBoundaryLength()).isEqualTo(70);
  }

  @Test
  void builderRejectsNonPositiveValues() {
    assertThatThrownBy(() -> MimeLimits.builder().maxParts(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxParts < 1: 0");
    assertThat(MimeLimits.DEFAULTS.toBuilder().build().toString())
        .isEqualTo(MimeLimits.DEFAULTS.toString());
  }

  /** A stream of prefix, a unit repeated, and suffix: hostile input without holding it. */
  static final class Generated extends InputStream {
    private final byte[] prefix;
    private final byte[] unit;
    private final byte[] suffix;
    private final long total;
    private long pos;

    private Generated(String prefix, byte[] unit, long repeats, String suffix) {
      this.prefix = prefix.getBytes(StandardCharsets.ISO_8859_1);
      this.unit = unit;
      this.suffix = suffix.getBytes(StandardCharsets.ISO_8859_1);
      this.total = this.prefix.length + unit.length * repeats + this.suffix.length;
    }

    static Generated of(String prefix, char c, long count, String suffix) {
      return new Generated(prefix, new byte[] {(byte) c}, count, suffix);
    }

    static Generated of(String prefix, String unit, long count, String suffix) {
      return new Generated(prefix, unit.getBytes(StandardCharsets.ISO_8859_1), count, suffix);
    }

    @Override
    public int read() {
      if (pos >= total) {
        return -1;
      }
      long p = pos++;
      if (p < prefix.length) {
        return prefix[(int) p] & 0xff;
      }
      long tail = total - suffix.length;
      if (p >= tail) {
        return suffix[(int) (p - tail)] & 0xff;
      }
      return unit[(int) ((p - prefix.length) % unit.length)] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= total) {
        return -1;
      }
      int n = (int) Math.min(len, total - pos);
      for (int i = 0; i < n; i++) {
        b[off + i] = (byte) read();
      }
      return n;
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
      throw new UnsupportedOperationException();
    }
  }
}
