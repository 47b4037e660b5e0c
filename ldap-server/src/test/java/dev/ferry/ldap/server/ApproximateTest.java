package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Approximate matching by sound, on names whose codes slapd's metaphone gives. */
class ApproximateTest {
  @Test
  void namesThatSoundAlikeHaveOneCode() {
    assertEquals("SM0", Approximate.metaphone("Smith"));
    assertEquals("SM0", Approximate.metaphone("Smyth"));
    assertEquals("JN", Approximate.metaphone("John"));
    assertEquals("JN", Approximate.metaphone("Jon"));
    assertEquals("S", Approximate.metaphone("Zoe"));
    assertEquals("", Approximate.metaphone("42"));
  }

  @Test
  void everyWordOfTheAssertionMatchesInOrder() {
    assertTrue(Approximate.matches("John  Smith", Approximate.assertionCodes("jon smyth")));
    assertTrue(Approximate.matches("John Q Smith", Approximate.assertionCodes("smyth")));
    assertFalse(Approximate.matches("John Smith", Approximate.assertionCodes("smyth jon")));
    assertTrue(Approximate.matches("Zoë Chen", Approximate.assertionCodes("Zoe"))); // ASCII
    assertFalse(Approximate.matches("John", Approximate.assertionCodes("  "))); // no word
  }
}
