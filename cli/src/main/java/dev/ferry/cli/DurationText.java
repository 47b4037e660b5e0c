package dev.ferry.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations as people write them on a command line: 30s, 1.5s, 2m, 1h, 1m30s. */
final class DurationText {
  private DurationText() {}

  /** Parses a duration; throws IllegalArgumentException, with the text, if it is not one. */
  static Duration parse(String text) {
    return parse(text, false);
  }

  private static Duration parse(String text, boolean zero) {
    try {
      Duration d = Duration.parse("PT" + text.strip().toUpperCase(Locale.ROOT));
      if (d.isNegative() || d.isZero() && !zero) {
        throw new IllegalArgumentException("not a positive duration: '" + text + "'");
      }
      return d;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not a duration such as 10s or 1m: '" + text + "'");
    }
  }

  /** Lets picocli options take durations in this notation, 0s included. */
  static final class ZeroOrMore implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value, true);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage().replace("positive", "0 or longer"));
      }
    }
  }

  /** Lets picocli options take durations in this notation. */
  static final class Converter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
