package dev.ferry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.testkit.Allocations;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RequestBodyTest {

  /** Whatever the sizes of the writes, a body within the limit is held whole, byte for byte. */
  @Property(tries = 200)
  void heldBodyIsWhatWasWritten(@ForAll @IntRange(min = 0, max = 300_000) int size,
      @ForAll @IntRange(min = 1, max = 70_000) int writeBytes, @ForAll long seed)
      throws IOException {
    byte[] data = random(size, seed);
    RequestBody body = new RequestBody(300_000, () -> {
      throw new AssertionError("a body within the limit never streams");
    }, () -> { });
    write(body, data, writeBytes);
    body.finish();

    assertThat(body.streamed()).isFalse();
    assertThat(body.size()).isEqualTo(size);
    ByteBuf content = body.content(PooledByteBufAllocator.DEFAULT);
    assertThat(content.isDirect()).isTrue();
    assertThat(ByteBufUtil.getBytes(content)).isEqualTo(data);
    content.release();
    ByteBuf again = body.content(PooledByteBufAllocator.DEFAULT);
    assertThat(ByteBufUtil.getBytes(again)).as("made again, for a retry").isEqualTo(data);
    again.release();
  }

  /** Past the limit, what was held goes first on the stream, then the rest, nothing twice. */
  @Property(tries = 100)
  void bodyPastTheLimitStreamsEveryByteOnce(
      @ForAll @IntRange(min = 1, max = 100_000) int limit,
      @ForAll @IntRange(min = 1, max = 50_000) int over,
      @ForAll @IntRange(min = 1, max = 20_000) int writeBytes, @ForAll long seed)
      throws IOException {
    byte[] data = random(limit + over, seed);
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    RequestBody body = new RequestBody(limit, () -> streamed, () -> { });
    write(body, data, writeBytes);
    body.finish();

    assertThat(body.streamed()).isTrue();
    assertThat(streamed.toByteArray()).isEqualTo(data);
  }

  /** A held body costs about its size: an array doubled from 8 KiB cost 3.6x for 33 KiB. */
  @Test
  void heldBodyCostsAboutItsOwnSize() throws IOException {
    byte[] data = random(33 * 1024, 1);
    long least = Long.MAX_VALUE;
    for (int i = 0; i < 20; i++) { // the least of several runs: nothing else allocated in it
      long before = Allocations.currentThread();
      RequestBody body = new RequestBody(1 << 20, () -> null, () -> { });
      write(body, data, 4096);
      least = Math.min(least, Allocations.currentThread() - before);
      assertThat(body.size()).isEqualTo(data.length);
    }
    assertThat(least).as("bytes allocated to hold a 33 KiB body").isLessThan(44 * 1024);
  }

  private static void write(RequestBody body, byte[] data, int writeBytes) throws IOException {
    for (int off = 0; off < data.length; off += writeBytes) {
      body.write(data, off, Math.min(writeBytes, data.length - off));
    }
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }
}
