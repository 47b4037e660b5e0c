package dev.ferry.mime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HexFormat;
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
          byte[] b = new byte[16];
          RandomPool.nextBytes(b);
          seen.add(HexFormat.of().formatHex(b));
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
  void drawsOfEverySizeUpToAndBeyondABlockAreFilled() {
    for (int size : new int[] {1, 15, 4095, 4096, 4097, 20000}) {
      byte[] b = new byte[size];
      RandomPool.nextBytes(b);
      int zeros = 0;
      for (byte x : b) {
        zeros += x == 0 ? 1 : 0;
      }
      assertThat(zeros).as("zero bytes in %d random bytes", size).isLessThan(size / 32 + 2);
    }
  }

  @Test
  void bytesAreEvenlySpreadAcrossSeveralKeys() {
    int blocks = 3 * RandomPool.BLOCKS_PER_KEY; // crosses at least two re-keyings
    int[] counts = new int[256];
    byte[] b = new byte[16];
    for (int i = 0; i < blocks * 4096 / b.length; i++) {
      RandomPool.nextBytes(b);
      for (byte x : b) {
        counts[x & 0xff]++;
      }
    }
    int expected = blocks * 4096 / 256; // 3,072; a fair byte strays by about 55
    for (int v = 0; v < 256; v++) {
      assertThat(counts[v]).as("count of byte %d", v).isBetween(expected * 3 / 4, expected * 5 / 4);
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
      String text = new String(out, 0, 34, java.nio.charset.StandardCharsets.ISO_8859_1);
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
