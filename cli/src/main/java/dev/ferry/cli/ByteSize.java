package dev.ferry.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Byte counts as people write them: 256, 256B, 4K, 4KiB, 12M, 12MiB (powers of 1024). */
final class ByteSize {
  private static final int KIB = 1024;
  private static final int MIB = 1024 * 1024;
  private static final long MAX = Integer.MAX_VALUE;

  private ByteSize() {}

  /** Parses a size; throws IllegalArgumentException, with the text, if it is not one. */
  static int parse(String text) {
    String t = text.strip().toUpperCase(Locale.ROOT);
    int unit = 1;
    if (t.endsWith("IB")) {
      t = t.substring(0, t.length() - 2);
    } else if (t.endsWith("B")) {
      t = t.substring(0, t.length() - 1);
    }
    if (t.endsWith("K")) {
      unit = KIB;
    } else if (t.endsWith("M")) {
      unit = MIB;
    }
    if (unit != 1) {
      t = t.substring(0, t.length() - 1);
    }
    long value;
    try {
      value = Long.parseLong(t.strip()) * unit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a size: '" + text + "' (examples: 256, 4K, 12M)");
    }
    if (value <= 0 || value > MAX) {
      throw new IllegalArgumentException("size out of range (1 B to 2 GiB): '" + text + "'");
    }
    return (int) value;
  }

  /** Formats {@code bytes} in the largest unit that divides it: 256 B, 4 KiB, 12 MiB, 1500 B. */
  static String format(long bytes) {
    if (bytes >= MIB && bytes % MIB == 0) {
      return bytes / MIB + " MiB";
    }
    if (bytes >= KIB && bytes % KIB == 0) {
      return bytes / KIB + " KiB";
    }
    return bytes + " B";
  }

  /** Lets picocli options take sizes in this notation. */
  static final class Converter implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        // picocli shows a TypeConversionException's message as it is, with exit code 2.
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
