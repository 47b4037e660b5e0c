package dev.ferry.bytes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class BufferPoolTest {

  @Test
  void givesBackWhatWasReturnedAndAllocatesOtherwise() {
    BufferPool pool = new BufferPool(16, 4);
    byte[] a = pool.take();
    assertThat(a).hasSize(16);
    pool.give(a);
    assertThat(pool.take()).isSameAs(a);
    assertThat(pool.take()).isNotSameAs(a).hasSize(16);
  }

  @Test
  void holdsAtMostItsSlotsAndOnlyItsSize() {
    BufferPool pool = new BufferPool(8, 4);
    pool.give(new byte[9]); // another size: dropped
    List<byte[]> given = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      byte[] b = new byte[8];
      given.add(b);
      pool.give(b);
    }
    Set<byte[]> back = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < 10; i++) {
      back.add(pool.take());
    }
    long reused = back.stream().filter(b -> given.stream().anyMatch(g -> g == b)).count();
    assertThat(reused).isBetween(1L, 4L);
    assertThatThrownBy(() -> new BufferPool(8, 3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void neverHandsOneArrayToTwoHoldersAtOnce() throws Exception {
    BufferPool pool = new BufferPool(32, 8);
    Set<byte[]> held = ConcurrentHashMap.newKeySet();
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        results.add(threads.submit(() -> {
          start.await();
          for (int i = 0; i < 20_000; i++) {
            byte[] b = pool.take();
            if (!held.add(b)) {
              return false; // someone else holds it
            }
            held.remove(b);
            pool.give(b);
          }
          return true;
        }));
      }
      start.countDown();
      for (Future<Boolean> r : results) {
        assertThat(r.get()).isTrue();
      }
    }
  }
}
