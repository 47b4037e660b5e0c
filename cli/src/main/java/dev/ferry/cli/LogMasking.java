package dev.ferry.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in a log line before it is written, whatever wrote it: the values of
 * Authorization headers, of keys and attributes named like a password, secret, token or
 * credential ({@code password=x}, {@code "token": "x"}, {@code userPassword: x} and LDIF's
 * {@code userPassword:: base64}), the content of XML elements so named (a WS-Security
 * UsernameToken's Password, CDATA included, also when the line ends before its end tag), and
 * numbers that pass the Luhn check as card numbers do. A line with none of the words these need
 * and no long run of digits is returned as it is, without a regular expression run.
 */
final class LogMasking {
  static final String MASK = "***";
  private static final String SECRET_WORD =
      "(?:password|passwd|pwd|secret|token|credentials?|api[_-]?key)";
  private static final String[] TRIGGERS = {"pass", "pwd", "secret", "token", "credential",
      "authorization", "api_key", "api-key", "apikey"};
  private static final Pattern AUTHORIZATION = Pattern.compile(
      "(?i)((?:proxy-)?authorization\"?\\s*[:=]\\s*)(\"[^\"]*\"?|[^\\r\\n]*)");
  private static final Pattern ELEMENT = Pattern.compile(
      "(?is)(<(?:[\\w.-]+:)?([\\w.-]*" + SECRET_WORD + "[\\w.-]*)(?:\\s[^>]*)?>)(.*?)"
      + "(?=</(?:[\\w.-]+:)?\\2\\s*>|$)");
  private static final Pattern KEY_VALUE = Pattern.compile(
      "(?i)((?<![<\\w])\"?[\\w.:-]*" + SECRET_WORD + "[\\w.-]*\"?\\s*(?:=|::?)\\s*)"
      + "(\"[^\"]*\"?|'[^']*'?|[^\\s,;&<>\"']+)");
  private static final Pattern DIGITS =
      Pattern.compile("(?<![\\w])\\d(?:[ -]?\\d){12,18}(?![\\w])");

  private LogMasking() {}

  /** {@code line} with every secret it holds replaced by {@link #MASK}. */
  static String mask(String line) {
    if (line == null) {
      return null;
    }
    if (mayHoldWord(line)) {
      line = replace(AUTHORIZATION, line);
      line = replace(ELEMENT, line);
      line = replace(KEY_VALUE, line);
    }
    return mayHoldCardNumber(line) ? maskCardNumbers(line) : line;
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

  private static boolean mayHoldWord(String line) {
    String lower = line.toLowerCase(Locale.ROOT);
    for (String t : TRIGGERS) {
      if (lower.contains(t)) {
        return true;
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
