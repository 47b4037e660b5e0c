package dev.ferry.soap;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Values of configuration sections as a YAML parser hands them over (a broker's routes, a
 * {@link MessageGuardFactory}'s settings), read one way everywhere.
 */
public final class SettingValues {
  private SettingValues() {}

  /**
   * Reads {@code 30s}, {@code 1.5s}, {@code 500ms}, {@code 2m}, an ISO-8601 duration
   * ({@code PT30S}) or a number of seconds.
   *
   * @throws IllegalArgumentException naming {@code where} if {@code v} is none of those
   */
  public static Duration duration(Object v, String where) {
    String s = String.valueOf(v).strip().toLowerCase(Locale.ROOT);
    try {
      if (v instanceof Number n) {
        return Duration.ofMillis(Math.round(n.doubleValue() * 1000));
      }
      if (s.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).strip()));
      }
      if (s.endsWith("s")) {
        return Duration.ofMillis(Math.round(
            Double.parseDouble(s.substring(0, s.length() - 1).strip()) * 1000));
      }
      if (s.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(s.substring(0, s.length() - 1).strip()));
      }
      return Duration.parse(s.toUpperCase(Locale.ROOT));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(where + ": expected a duration such as 30s, got " + v);
    }
  }
}
