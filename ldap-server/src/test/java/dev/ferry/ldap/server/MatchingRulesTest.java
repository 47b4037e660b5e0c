package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.bytes.ByteString;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** String preparation: values left as they are when nothing is to change, and when it is. */
class MatchingRulesTest {
  private static final String ALPHABET = "aB1 \t-x ";

  /**
   * Over random strings of spaces, tabs, hyphens and letters, each preparation's value and
   * substring piece equal what RFC 4518's insignificant space handling, written as regular
   * expressions, makes of them: so a value returned unchanged is one that needed no change.
   */
  @Test
  void preparedValuesAndPiecesAreAsTheSpaceRulesSay() {
    Random r = new Random(34);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder s = new StringBuilder();
      for (int i = r.nextInt(9); i > 0; i--) {
        s.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
      }
      String text = s.toString();
      ByteString v = ByteString.encodeUtf8(text);
      for (MatchingRules.Prep p : MatchingRules.Prep.values()) {
        assertEquals(expected(p, text, true), p.value(v), p + " value of '" + text + "'");
        assertEquals(expected(p, text, false), p.piece(v), p + " piece of '" + text + "'");
      }
    }
  }

  private static String expected(MatchingRules.Prep p, String text, boolean trim) {
    String s = switch (p) {
      case NUMERIC -> text.replace(" ", "");
      case TELEPHONE -> text.replace(" ", "").replace("-", "");
      default -> text;
    };
    if (p == MatchingRules.Prep.CASE_IGNORE || p == MatchingRules.Prep.IA5_IGNORE
        || p == MatchingRules.Prep.TELEPHONE) {
      s = s.toLowerCase(Locale.ROOT);
    }
    s = s.replaceAll("[ \t]+", " ");
    return trim ? s.strip() : s;
  }
}
