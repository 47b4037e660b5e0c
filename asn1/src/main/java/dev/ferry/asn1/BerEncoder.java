package dev.ferry.asn1;

import java.io.IOException;

/**
 * Writes one value through a {@link BerWriter}. {@link BerWriter#encode} calls it twice, first
 * to measure and then to write, so it must make the same calls both times.
 */
@FunctionalInterface
public interface BerEncoder {
  /** Writes the value's elements to {@code w}. */
  void encode(BerWriter w) throws IOException;
}
