package dev.ferry.logging;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in a log line before it is written, whatever wrote it: the values of
 * Authorization headers, of keys and attributes named like a password, secret, token or
 * credential ({@code password=x}, {@code "token": "x"}, {@code userPassword: x} and LDIF's
 * {@code userPassword:: base64}), the content of XML elements so named (a WS-Security
 * UsernameToken's Password, CDATA included, also when the line ends before its end tag), and
 * numbers that pass the Luhn check as card numbers do. {@link #withNames} adds names of the
 * application's own (a {@code pin} element, an {@code iban} attribute), masked the same way. A
 * line with none of the words these need and no long run of digits is returned as it is,
 * without a regular expression run.
 */
public final class LogMasking {
  /** What a secret becomes. */
  public static final String MASK = "***";
  private static final String SECRET_WORD =
      "(?:password|passwd|pwd|secret|token|credentials?|api[_-]?key)";
  private static final List<String> TRIGGERS = List.of("pass", "pwd", "secret", "token",
      "credential", "authorization", "api_key", "api-key", "apikey");
  private static final Pattern AUTHORIZATION = Pattern.compile(
      "(?i)((?:proxy-)?authorization\"?\\s*[:=]\\s*)(\"[^\"]*\"?|[^\\r\\n]*)");
  private static final Pattern DIGITS =
      Pattern.compile("(?<![\\w])\\d(?:[ -]?\\d){12,18}(?![\\w])");
  private static final LogMasking DEFAULTS = new LogMasking(TRIGGERS,
      "[\\w.-]*" + SECRET_WORD + "[\\w.-]*", "[\\w.:-]*" + SECRET_WORD + "[\\w.-]*");

  private final List<String> triggers;
  private final boolean[] startsTrigger = new boolean[128]; // by lower-case ASCII first char
  private final int shortestTrigger;
  private final Pattern element;
  private final Pattern keyValue;
  private final LogMasking base; // masked first; null for the defaults

  private LogMasking(List<String> triggers, String elementName, String keyName) {
    this(triggers, elementName, keyName, null);
  }

  private LogMasking(List<String> triggers, String elementName, String keyName,
      LogMasking base) {
    this.triggers = triggers;
    this.base = base;
    int shortest = Integer.MAX_VALUE;
    for (String t : triggers) {
      // the ASCII letters a case-blind comparison takes for its first (a name may start with
      // a letter outside ASCII, which is compared wherever the line has one)
      char first = t.charAt(0);
      for (char c : new char[] {Character.toLowerCase(first), Character.toUpperCase(first)}) {
        if (c < 128) {
          startsTrigger[Character.toLowerCase(c)] = true;
        }
      }
      shortest = Math.min(shortest, t.length());
    }
    this.shortestTrigger = shortest;
    // group 1: the start tag; group 2: the element's local name, which its end tag repeats
    this.element = Pattern.compile("(?is)(<(?:[\\w.-]+:)?(" + elementName
        + ")(?:\\s[^>]*)?>)(.*?)(?=</(?:[\\w.-]+:)?\\2\\s*>|$)");
    this.keyValue = Pattern.compile("(?i)((?<![<\\w])\"?" + keyName
        + "\"?\\s*(?:=|::?)\\s*)(\"[^\"]*\"?|'[^']*'?|[^\\s,;&<>\"']+)");
  }

  /** The built-in rules. */
  public static LogMasking defaults() {
    return DEFAULTS;
  }

  /** {@code line} with every secret the built-in rules know replaced by {@link #MASK}. */
  public static String mask(String line) {
    return DEFAULTS.apply(line);
  }

  /**
   * These rules and, besides, the content of elements and the values of attributes and keys
   * named {@code names} (whole local names, any case, any namespace prefix).
   *
   * @throws IllegalArgumentException for a name that is not an XML name
   */
  public LogMasking withNames(Collection<String> names) {
    if (names.isEmpty()) {
      return this;
    }
    List<String> lower = new ArrayList<>();
    StringBuilder alternatives = new StringBuilder("(?:");
    for (String n : names) {
      if (!n.matches("[\\p{L}_][\\p{L}\\p{N}_.-]*")) {
        throw new IllegalArgumentException("not an element or attribute name: \"" + n + "\"");
      }
      lower.add(n.toLowerCase(Locale.ROOT));
      alternatives.append(alternatives.length() > 3 ? "|" : "").append(Pattern.quote(n));
    }
    String any = alternatives.append(')').toString();
    return new LogMasking(List.copyOf(lower), any, "(?:[\\w.-]+:)?" + any, this);
  }

  /** {@code line} with every secret these rules know replaced by {@link #MASK}. */
  public String apply(String line) {
    if (line == null) {
      return null;
    }
    if (base != null) {
      line = base.apply(line);
    }
    if (mayHoldWord(line)) {
      if (base == null) {
        line = replace(AUTHORIZATION, line);
      }
      line = replace(element, line);
      line = replace(keyValue, line);
    }
    return base == null && mayHoldCardNumber(line) ? maskCardNumbers(line) : line;
  }

  /** Keeps group 1 (the name and its separator or tag), masks the rest of each match. */
  private static String replace(Pattern p, String line) {
    Matcher m = p.matcher(line);
    if (!m.find()) {
      return line;
    }
    StringBuilder b = new StringBuilder(line.length());
    do {
      m.appendReplacement(b, "");
      b.append(m.group(1)).append(MASK); // the value ends each pattern's match
    } while (m.find());
    m.appendTail(b);
    return b.toString();
  }

  /**
   * Whether a trigger word occurs in {@code line}, any case: one pass that compares a trigger
   * only where its first letter is, without a lower-cased copy of the line (a record is up to
   * the message log's cap, and most hold no trigger at all).
   */
  private boolean mayHoldWord(String line) {
    int last = line.length() - shortestTrigger;
    for (int i = 0; i <= last; i++) {
      char c = line.charAt(i);
      if (c >= 128 || startsTrigger[Character.toLowerCase(c)]) {
        for (String t : triggers) {
          if (line.regionMatches(true, i, t, 0, t.length())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean mayHoldCardNumber(String line) {
    int run = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c >= '0' && c <= '9') {
        if (++run >= 13) {
          return true;
        }
      } else if (c != ' ' && c != '-') {
        run = 0;
      }
    }
    return false;
  }

  private static String maskCardNumbers(String line) {
    Matcher m = DIGITS.matcher(line);
    StringBuilder b = new StringBuilder(line.length());
    while (m.find()) {
      m.appendReplacement(b, luhn(m.group()) ? MASK : Matcher.quoteReplacement(m.group()));
    }
    m.appendTail(b);
    return b.toString();
  }

  /** Whether the digits of {@code s} pass the Luhn check (what card numbers do). */
  static boolean luhn(String s) {
    int sum = 0;
    boolean twice = false;
    for (int i = s.length() - 1; i >= 0; i--) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        continue;
      }
      int d = c - '0';
      if (twice) {
        d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      }
      sum += d;
      twice = !twice;
    }
    return sum % 10 == 0;
  }
}
