package dev.ferry.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.function.Executable;

/** Assertions for decode errors: the exact type, and what the message says. */
public final class DecodeAssertions {
  private DecodeAssertions() {}

  /** Asserts that {@code body} throws exactly {@code type} (not a subclass of a sibling). */
  public static <T extends Throwable> T assertFails(Class<T> type, Executable body) {
    return assertThrows(type, body);
  }

  /** Asserts that {@code message} contains each fragment. */
  public static void assertMentions(String message, String... fragments) {
    for (String f : fragments) {
      assertTrue(message != null && message.contains(f),
          () -> "expected the message to mention \"" + f + "\" but it was: " + message);
    }
  }

  /** Asserts {@code expected == actual} for offsets, with a readable message. */
  public static void assertOffset(long expected, long actual) {
    assertEquals(expected, actual, "byte offset");
  }
}
