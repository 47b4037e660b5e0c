package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.activation.DataHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.params.provider.Arguments;

/** The blobs the echo tests send, and how they compare what comes back. */
final class Blobs {
  static final int KIB = 1024;
  static final int MIB = 1024 * KIB;
  /** The sizes every peer pair runs, MTOM on and off; 12 MiB runs once per pair and mode. */
  static final List<Integer> SIZES = List.of(0, KIB, 64 * KIB, MIB);
  static final int LARGE = 12 * MIB;
  /** The {@code @MethodSource} of {@link #sizesAndModes()}. */
  static final String SIZES_AND_MODES = "dev.ferry.interop.Blobs#sizesAndModes";
  /** A name with characters that need escaping in XML and more than one UTF-8 byte. */
  static final String NAME = "ferry <&> échos ✓";

  private Blobs() {}

  /** JUnit arguments: every size in {@link #SIZES}, with MTOM on and with MTOM off. */
  static Stream<Arguments> sizesAndModes() {
    return SIZES.stream()
        .flatMap(size -> Stream.of(Arguments.of(size, true), Arguments.of(size, false)));
  }

  /** Pseudo-random bytes, the same for the same size: no codec can guess or compress them. */
  static byte[] of(int size) {
    byte[] bytes = new byte[size];
    new SplittableRandom(size).nextBytes(bytes);
    return bytes;
  }

  /** Reads a handler to its end; {@code null} for a null handler (a missing element). */
  static byte[] read(DataHandler handler) {
    if (handler == null) {
      return null;
    }
    try (InputStream in = handler.getInputStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Asserts byte-for-byte equality. On a difference it names length, CRC32 and the first
   * differing offset instead of printing megabytes.
   */
  static void assertSameBytes(byte[] actual, byte[] expected) {
    assertThat(actual).as("echoed blob").isNotNull();
    int mismatch = Arrays.mismatch(actual, expected);
    assertThat(mismatch)
        .as("first differing offset; got %d bytes crc32 %08x, sent %d bytes crc32 %08x",
            actual.length, crc32(actual), expected.length, crc32(expected))
        .isEqualTo(-1);
  }

  static long crc32(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }

  /** One HTTP header's value from a JAX-WS header map, whose key case differs by peer. */
  static String header(Map<String, List<String>> headers, String name) {
    if (headers == null) {
      return null;
    }
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      if (name.equalsIgnoreCase(e.getKey()) && !e.getValue().isEmpty()) {
        return String.join(", ", e.getValue());
      }
    }
    return null;
  }
}
