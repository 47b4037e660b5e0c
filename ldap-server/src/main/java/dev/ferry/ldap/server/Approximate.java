package dev.ferry.ldap.server;

import java.text.Normalizer;
import java.util.Set;

/**
 * Approximate matching ({@code (cn~=jon smyth)}) as slapd does it for the string types whose
 * equality rule is caseIgnoreMatch, caseExactMatch, caseIgnoreIA5Match or caseExactIA5Match:
 * the value and the assertion are reduced to ASCII (compatibility decomposition, then every
 * character outside ASCII dropped: "Zoë" is "Zoe"), split into words at spaces, and each word
 * coded by its sound ({@link #metaphone}); the item is TRUE when every word of the assertion has
 * the code of a word of the value, in the same order, and there is at least one. Other types
 * have no approximate rule and match approximately as they match for equality.
 */
final class Approximate {
  /** The equality rules whose types match approximately by sound. */
  private static final Set<String> PHONETIC = Set.of("caseIgnoreMatch", "caseExactMatch",
      "caseIgnoreIA5Match", "caseExactIA5Match");
  /** Letters a code holds at most (slapd's MAXPHONEMELEN). */
  private static final int CODE_LETTERS = 4;
  /** Letters of a word that count (slapd copies at most 31). */
  private static final int WORD_LETTERS = 31;

  private Approximate() {}

  /** True if {@code equality} types match approximately by sound, false if by equality. */
  static boolean isPhonetic(MatchingRule equality) {
    return equality != null && PHONETIC.contains(equality.name);
  }

  /**
   * The codes of an assertion's words, in order; empty if it has none (the item is then
   * FALSE).
   */
  static String[] assertionCodes(String assertion) {
    String[] words = ascii(assertion).split(" ");
    int n = 0;
    for (String w : words) {
      if (!w.isEmpty()) {
        words[n++] = metaphone(w);
      }
    }
    return java.util.Arrays.copyOf(words, n);
  }

  /** True if the value's words have the codes {@code assertion}, in that order. */
  static boolean matches(String value, String[] assertion) {
    if (assertion.length == 0) {
      return false;
    }
    // The stored value as its equality rule prepares it: runs of spaces made one, none at the
    // ends; an empty word (a word of characters outside ASCII) still counts, with code "".
    String[] words = ascii(value.strip().replaceAll(" +", " ")).split(" ", -1);
    int next = 0;
    for (String code : assertion) {
      while (next < words.length && !metaphone(words[next]).equals(code)) {
        next++;
      }
      if (next == words.length) {
        return false;
      }
      next++;
    }
    return true;
  }

  /** Compatibility decomposition, then only the ASCII characters. */
  private static String ascii(String s) {
    String d = Normalizer.normalize(s, Normalizer.Form.NFKD);
    StringBuilder out = new StringBuilder(d.length());
    for (int i = 0; i < d.length(); i++) {
      char c = d.charAt(i);
      if (c < 0x80) {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * The sound of a word, as slapd's metaphone (Lawrence Philips's, in the variant of the C
   * Gazette with the University of Michigan's changes) codes it in at most four letters: the
   * letters before the first space, punctuation or digit, upper-cased, then translated by the
   * rules below. Its quirks are kept, so that the same words match as in slapd: a B is kept
   * only as the last letter.
   */
  static String metaphone(String word) {
    // Four zeros on each side, so that the rules may look two back and three ahead.
    char[] t = new char[4 + WORD_LETTERS + 4];
    int end = 4;
    for (int i = 0; i < word.length() && end < 4 + WORD_LETTERS; i++) {
      char c = word.charAt(i);
      if (c >= 0x80 || c == 0 || Character.isWhitespace(c) || isPunct(c) || isDigit(c)) {
        break;
      }
      if (isAlpha(c)) {
        t[end++] = Character.toUpperCase(c);
      }
    }
    if (end == 4) {
      return "";
    }
    int n = start(t);
    StringBuilder code = new StringBuilder(CODE_LETTERS);
    boolean ks = false; // an X coded K: its S follows
    for (int first = n; n <= end && code.length() < CODE_LETTERS; n++) {
      if (ks) {
        ks = false;
        code.append('S');
      } else if (t[n - 1] == t[n] && t[n] != 'C') {
        continue; // a doubled letter counts once, but for CC
      } else if (same(t[n]) || (n == first && vowel(t[n]))) {
        code.append(t[n]);
      } else {
        ks = letter(t, n, first, end, code);
      }
    }
    return code.toString();
  }

  /** Applies the rules for a word's first letters; returns where the word now starts. */
  private static int start(char[] t) {
    int n = 4;
    switch (t[n]) {
      case 'P', 'K', 'G' -> {
        if (t[n + 1] == 'N') {
          t[n++] = 0; // PN, KN, GN: N
        }
      }
      case 'A' -> {
        if (t[n + 1] == 'E') {
          t[n++] = 0; // AE: E
        }
      }
      case 'W' -> {
        if (t[n + 1] == 'R') {
          t[n++] = 0; // WR: R
        } else if (t[n + 1] == 'H') {
          t[n + 1] = t[n]; // WH: W
          t[n++] = 0;
        }
      }
      case 'X' -> t[n] = 'S';
      default -> { }
    }
    return n;
  }

  /** Codes the letter at {@code n} into {@code code}; true if an S is to follow (X as KS). */
  private static boolean letter(char[] t, int n, int first, int end, StringBuilder code) {
    char c = t[n];
    char prev = t[n - 1];
    char next = t[n + 1];
    char after = t[n + 2];
    switch (c) {
      case 'B' -> {
        if (n == end - 1 && prev != 'M') {
          code.append('B');
        }
      }
      case 'C' -> {
        if (prev != 'S' || !frontVowel(next)) {
          if (next == 'I' && after == 'A') {
            code.append('X');
          } else if (frontVowel(next)) {
            code.append('S');
          } else if (next == 'H') {
            code.append((n == first && !vowel(after)) || prev == 'S' ? 'K' : 'X');
          } else {
            code.append('K');
          }
        }
      }
      case 'D' -> code.append(next == 'G' && frontVowel(after) ? 'J' : 'T');
      case 'G' -> {
        if ((next != 'J' || vowel(after))
            && (next != 'N' || (n + 1 < end && (after != 'E' || t[n + 3] != 'D')))
            && (prev != 'D' || !frontVowel(next))) {
          code.append(frontVowel(next) && after != 'G' ? 'G' : 'K');
        } else if (next == 'H' && !noGhf(t[n - 3]) && t[n - 4] != 'H') {
          code.append('F');
        }
      }
      case 'H' -> {
        if (!varson(prev) && (!vowel(prev) || vowel(next))) {
          code.append('H');
        }
      }
      case 'K' -> {
        if (prev != 'C') {
          code.append('K');
        }
      }
      case 'P' -> code.append(next == 'H' ? 'F' : 'P');
      case 'Q' -> code.append('K');
      case 'S' -> code.append(next == 'H' || (next == 'I' && (after == 'O' || after == 'A'))
          ? 'X' : 'S');
      case 'T' -> {
        if (next == 'I' && (after == 'O' || after == 'A')) {
          code.append('X');
        } else if (next == 'H') {
          code.append('0');
        } else if (next != 'C' || after != 'H') {
          code.append('T');
        }
      }
      case 'V' -> code.append('F');
      case 'W', 'Y' -> {
        if (vowel(next)) {
          code.append(c);
        }
      }
      case 'X' -> {
        if (n == first) {
          code.append('S');
        } else {
          code.append('K');
          return true;
        }
      }
      case 'Z' -> code.append('S');
      default -> { }
    }
    return false;
  }

  /** The classes of slapd's table: vowels, letters kept as they are, and the rest. */
  private static final String VOWELS = "AEIOU";
  private static final String SAME = "FJLMNR";
  private static final String VARSON = "CGPST";
  private static final String FRONT_VOWELS = "EIY";
  private static final String NO_GHF = "BDH";

  private static boolean vowel(char c) {
    return c != 0 && VOWELS.indexOf(c) >= 0;
  }

  private static boolean same(char c) {
    return c != 0 && SAME.indexOf(c) >= 0;
  }

  private static boolean varson(char c) {
    return c != 0 && VARSON.indexOf(c) >= 0;
  }

  private static boolean frontVowel(char c) {
    return c != 0 && FRONT_VOWELS.indexOf(c) >= 0;
  }

  private static boolean noGhf(char c) {
    return c != 0 && NO_GHF.indexOf(c) >= 0;
  }

  private static boolean isAlpha(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** C's ispunct in the C locale: printable ASCII, neither a letter, a digit nor a space. */
  private static boolean isPunct(char c) {
    return c > ' ' && c < 0x7f && !isAlpha(c) && !isDigit(c);
  }
}
