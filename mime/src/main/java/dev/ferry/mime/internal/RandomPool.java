package dev.ferry.mime.internal;

import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Random hex for boundaries and Content-IDs, from bytes made in blocks of 4 KiB: a draw of 16
 * bytes then costs one atomic add and their hex digits instead of a trip to a generator (about
 * 0.5 µs each with NativePRNG, a large share of writing a small message).
 *
 * <p>A block is AES-256 in counter mode over zeros, keyed and started from a
 * {@link SecureRandom} (NIST SP 800-90A's DRBG) and keyed afresh every {@value #BLOCKS_PER_KEY}
 * blocks: the construction of SP 800-90A's CTR_DRBG, without its derivation function. With AES
 * instructions a block takes about 0.35 µs where the DRBG's Hash_DRBG took 8-11 µs, which was
 * 30-40 ns of every writer. If the platform has no AES cipher, blocks come from the DRBG.
 *
 * <p>A draw claims its range of the current block with {@code getAndAdd}, so no two callers get
 * the same bytes and none waits for another; the caller that finds the block used up makes the
 * next one under a lock (not {@code synchronized}, so virtual threads do not pin). A block is
 * never written after it is published and never used again once spent.
 */
public final class RandomPool {
  private static final int BLOCK_SIZE = 4096;
  static final int BLOCKS_PER_KEY = 64;
  private static final SecureRandom RANDOM = generator();
  private static final ReentrantLock REFILL = new ReentrantLock();
  private static final byte[] ZEROS = new byte[BLOCK_SIZE];
  private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b',
      'c', 'd', 'e', 'f'};
  private static Cipher keystream; // guarded by REFILL; null: blocks come from RANDOM
  private static int blocksLeft; // guarded by REFILL: blocks before the next key
  private static volatile Block current = new Block(new byte[0]); // spent: the first draw fills

  private RandomPool() {}

  /** A published block of random bytes and the start of its unclaimed rest. */
  private static final class Block {
    final byte[] bytes;
    final AtomicInteger next = new AtomicInteger();

    Block(byte[] bytes) {
      this.bytes = bytes;
    }
  }

  /**
   * NIST SP 800-90A's DRBG (Hash_DRBG with SHA-256 by default, seeded by the system): about
   * 11 µs per 4 KiB block here, where Linux's default {@code NativePRNG} (which mixes SHA1PRNG
   * output into /dev/urandom's) took over 130 µs, 0.5-1 µs per writer.
   */
  private static SecureRandom generator() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }

  /**
   * Writes {@code count} random bytes that no other caller receives as {@code 2 * count}
   * lower-case hex digits into {@code out} at {@code at} (no array for the bytes themselves).
   */
  public static void nextHex(byte[] out, int at, int count) {
    if (count > BLOCK_SIZE) {
      throw new IllegalArgumentException("count over " + BLOCK_SIZE + ": " + count);
    }
    while (true) {
      Block block = current;
      int from = block.next.getAndAdd(count);
      if (from >= 0 && from <= block.bytes.length - count) {
        byte[] bytes = block.bytes;
        for (int i = from; i < from + count; i++) {
          out[at++] = HEX[(bytes[i] >> 4) & 0xf];
          out[at++] = HEX[bytes[i] & 0xf];
        }
        return;
      }
      replace(block);
    }
  }

  /** Publishes a fresh block unless another caller already replaced {@code spent}. */
  private static void replace(Block spent) {
    REFILL.lock();
    try {
      if (current == spent) {
        current = new Block(freshBlock());
      }
    } finally {
      REFILL.unlock();
    }
  }

  /** A new block of random bytes; called under {@link #REFILL}. */
  private static byte[] freshBlock() {
    byte[] bytes = new byte[BLOCK_SIZE];
    try {
      if (blocksLeft == 0) {
        keystream = newKeystream();
        blocksLeft = BLOCKS_PER_KEY;
      }
      if (keystream != null) {
        keystream.update(ZEROS, 0, BLOCK_SIZE, bytes, 0);
        blocksLeft--;
        return bytes;
      }
    } catch (GeneralSecurityException e) {
      keystream = null; // use the DRBG from now on
    }
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /** AES-256-CTR with a fresh key and counter start from the DRBG, or null if unavailable. */
  private static Cipher newKeystream() {
    byte[] seed = new byte[48];
    RANDOM.nextBytes(seed);
    try {
      Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(seed, 0, 32, "AES"),
          new IvParameterSpec(seed, 32, 16));
      return c;
    } catch (GeneralSecurityException e) {
      return null;
    } finally {
      Arrays.fill(seed, (byte) 0);
    }
  }
}
