package dev.ferry.mime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class RandomPoolTest {
  @Test
  void concurrentDrawsNeverShareBytesAcrossManyBlocks() throws Exception {
    int threads = 8;
    int draws = 3000; // 8 x 3000 x 16 bytes: about 94 blocks of 4 KiB
    Set<String> seen = ConcurrentHashMap.newKeySet();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      all.add(Thread.ofPlatform().start(() -> {
        awaitQuietly(start);
        for (int i = 0; i < draws; i++) {
          byte[] b = new byte[32];
          RandomPool.nextHex(b, 0, 16);
          seen.add(new String(b, StandardCharsets.ISO_8859_1));
        }
      }));
    }
    start.countDown();
    for (Thread t : all) {
      t.join();
    }
    assertThat(seen).hasSize(threads * draws);
  }

  @Test
  void drawsOfEverySizeUpToABlockAreFilledAndLargerOnesRefused() {
    for (int size : new int[] {1, 15, 2048, 4096}) {
      byte[] b = new byte[2 * size];
      RandomPool.nextHex(b, 0, size);
      int zeros = 0;
      for (int i = 0; i < b.length; i++) {
        assertThat((char) b[i]).isIn('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b',
            'c', 'd', 'e', 'f');
        zeros += b[i] == '0' ? 1 : 0;
      }
      // a draw of zero bytes would be all '0's; random digits are one in sixteen, and this
      // bound is passed by chance about once in a billion draws (for 30 digits, the shortest)
      assertThat(zeros).as("'0' digits in %d", b.length).isLessThan(b.length / 4 + 6);
    }
    assertThatThrownBy(() -> RandomPool.nextHex(new byte[8194], 0, 4097))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void digitsAreEvenlySpreadAcrossSeveralKeys() {
    int blocks = 3 * RandomPool.BLOCKS_PER_KEY; // crosses at least two re-keyings
    int[] counts = new int[128];
    byte[] b = new byte[32];
    for (int i = 0; i < blocks * 4096 / 16; i++) {
      RandomPool.nextHex(b, 0, 16);
      for (byte x : b) {
        counts[x]++;
      }
    }
    int expected = blocks * 4096 * 2 / 16; // 98,304 per digit; a fair one strays by about 300
    for (char digit : "0123456789abcdef".toCharArray()) {
      assertThat(counts[digit]).as("count of %s", digit)
          .isBetween(expected * 19 / 20, expected * 21 / 20);
    }
  }

  @Test
  void hexDrawsAreLowerCaseDigitsInPlaceAndNeverRepeat() {
    Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < 1000; i++) { // about four blocks
      byte[] out = new byte[40];
      out[0] = 'x';
      out[33] = 'y';
      RandomPool.nextHex(out, 1, 16);
      String text = new String(out, 0, 34, StandardCharsets.ISO_8859_1);
      assertThat(text).matches("x[0-9a-f]{32}y");
      assertThat(seen.add(text)).isTrue();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
