package dev.ferry.testkit;

import java.util.Random;

/** Test payloads: random bytes that a seed makes again, so a failure can be replayed. */
public final class Blobs {
  private Blobs() {}

  /** Returns {@code size} random bytes drawn from {@code seed}. */
  public static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }
}
