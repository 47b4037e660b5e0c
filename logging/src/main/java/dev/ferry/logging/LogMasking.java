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

  private static final int OUTSIDE_ASCII = 128;

  private final String[][] byFirst; // see byFirst(List)
  private final Pattern element;
  private final Pattern keyValue;
  private final LogMasking base; // masked first; null for the defaults

  private LogMasking(List<String> triggers, String elementName, String keyName) {
    this(triggers, elementName, keyName, null);
  }

  private LogMasking(List<String> triggers, String elementName, String keyName,
      LogMasking base) {
    this.byFirst = byFirst(triggers);
    this.base = base;
    // case-blind outside ASCII too (u), as names of the application may be; group 1: the start
    // tag; group 2: the element's local name, which its end tag repeats
    this.element = Pattern.compile("(?isu)(<(?:[\\w.-]+:)?(" + elementName
        + ")(?:\\s[^>]*)?>)(.*?)(?=</(?:[\\w.-]+:)?\\2\\s*>|$)");
    this.keyValue = Pattern.compile("(?iu)((?<![<\\w])\"?" + keyName
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
   * Whether a trigger word occurs in {@code line}, any case: one pass that looks up, at each
   * character, the triggers that may start with it, and compares one only if the next character
   * fits too; no lower-cased copy of the line is made (a record is up to the message log's cap,
   * and most hold no trigger at all).
   */
  private boolean mayHoldWord(String line) {
    int n = line.length();
    for (int i = 0; i < n; i++) {
      char c = line.charAt(i);
      String[] candidates = byFirst[bucket(c)];
      if (candidates == null) {
        continue;
      }
      char next = i + 1 < n ? line.charAt(i + 1) : 0;
      for (String t : candidates) {
        if (t.length() > 1 && next < 128 && t.charAt(1) < 128
            && asciiLower(next) != t.charAt(1)) {
          continue;
        }
        if (line.regionMatches(true, i, t, 0, t.length())) {
          return true;
        }
      }
    }
    return false;
  }

  /** Where {@link #byFirst} keeps the triggers {@code c} may start (the Kelvin sign: k's). */
  private static int bucket(char c) {
    if (c < 128) {
      return asciiLower(c);
    }
    char lower = Character.toLowerCase(c);
    return lower < 128 ? lower : OUTSIDE_ASCII;
  }

  private static char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
  }

  /**
   * The triggers (lower case) by the ASCII letter a case-blind comparison may take for their
   * first, and at {@link #OUTSIDE_ASCII} those a character outside ASCII may start.
   */
  private static String[][] byFirst(List<String> triggers) {
    List<List<String>> buckets = new ArrayList<>();
    for (int i = 0; i <= OUTSIDE_ASCII; i++) {
      buckets.add(new ArrayList<>());
    }
    for (String trigger : triggers) {
      String t = trigger.toLowerCase(Locale.ROOT);
      char first = t.charAt(0);
      for (char v : new char[] {first, Character.toUpperCase(first)}) {
        List<String> bucket = buckets.get(bucket(v));
        if (!bucket.contains(t)) {
          bucket.add(t);
        }
      }
    }
    String[][] table = new String[OUTSIDE_ASCII + 1][];
    for (int i = 0; i <= OUTSIDE_ASCII; i++) {
      table[i] = buckets.get(i).isEmpty() ? null : buckets.get(i).toArray(String[]::new);
    }
    return table;
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
