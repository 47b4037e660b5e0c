package dev.ferry.broker;

import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A test of a text value (a header's, an action's): equal to a literal, or matched whole by a
 * regular expression ({@link java.util.regex.Pattern}). A missing value passes neither.
 * Immutable.
 */
public final class TextMatch {
  private final String literal;
  private final Pattern pattern;

  private TextMatch(String literal, Pattern pattern) {
    this.literal = literal;
    this.pattern = pattern;
  }

  /** Passes {@code literal} only. */
  public static TextMatch equalTo(String literal) {
    return new TextMatch(Objects.requireNonNull(literal), null);
  }

  /**
   * Passes what {@code regex} matches whole.
   *
   * @throws IllegalArgumentException if {@code regex} is not a regular expression
   */
  public static TextMatch matching(String regex) {
    try {
      return new TextMatch(null, Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("not a regular expression: " + e.getMessage(), e);
    }
  }

  /** Whether {@code value} passes; false for null. */
  public boolean test(String value) {
    if (value == null) {
      return false;
    }
    return literal != null ? literal.equals(value) : pattern.matcher(value).matches();
  }

  @Override
  public String toString() {
    return literal != null ? "= " + literal : "~ " + pattern.pattern();
  }
}
