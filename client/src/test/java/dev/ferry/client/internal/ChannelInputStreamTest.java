package dev.ferry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The stream a loop hands a body over through: every byte reaches the reader in order, and a
 * reader woken only once enough waits still gets a few bytes that stop short of that, soon.
 */
class ChannelInputStreamTest {
  private static final int PAUSE_BYTES = 256 * 1024;

  /** Whatever the chunks, the reader gets every byte once, in order, then the end. */
  @Property(tries = 50)
  void everyByteOnceInOrder(@ForAll @IntRange(min = 0, max = 600_000) int size,
      @ForAll @IntRange(min = 1, max = 70_000) int chunkBytes, @ForAll long seed)
      throws Exception {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    EmbeddedChannel channel = new EmbeddedChannel();
    ChannelInputStream in = new ChannelInputStream(channel, PAUSE_BYTES);
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> readAll(in));
    for (int at = 0; at < size; at += chunkBytes) {
      while (in.paused()) { // the reader takes half before the loop reads on
        channel.runScheduledPendingTasks();
        Thread.onSpinWait();
      }
      in.offer(Unpooled.wrappedBuffer(data, at, Math.min(chunkBytes, size - at)));
    }
    in.end();
    assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(data);
    channel.finishAndReleaseAll();
  }

  /**
   * A few bytes, far fewer than wake a reader at once, reach a waiting reader without the end
   * or more bytes behind them: the loop wakes it a moment later.
   */
  @Test
  void aFewBytesReachAWaitingReaderWithoutTheEnd() throws Exception {
    EmbeddedChannel channel = new EmbeddedChannel();
    ChannelInputStream in = new ChannelInputStream(channel, PAUSE_BYTES);
    CompletableFuture<byte[]> read = new CompletableFuture<>();
    Thread reader = Thread.ofPlatform().start(() -> {
      byte[] b = new byte[100];
      try {
        read.complete(Arrays.copyOf(b, in.read(b, 0, b.length)));
      } catch (IOException e) {
        read.completeExceptionally(e);
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (reader.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
      Thread.onSpinWait(); // the reader waits for bytes before they come
    }
    byte[] few = {1, 2, 3, 4, 5, 6, 7};
    in.offer(Unpooled.wrappedBuffer(few));
    while (!read.isDone() && System.nanoTime() < deadline) {
      channel.runScheduledPendingTasks(); // the loop's turn: its delayed wake-up
      Thread.onSpinWait();
    }
    assertThat(read.get(1, TimeUnit.SECONDS)).isEqualTo(few);
    in.close();
    channel.finishAndReleaseAll();
  }

  private static byte[] readAll(ChannelInputStream in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] b = new byte[8192];
    try {
      for (int n; (n = in.read(b, 0, b.length)) >= 0; ) {
        out.write(b, 0, n);
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }
}
