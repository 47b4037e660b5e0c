package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.testkit.Allocations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class MultipartReaderTest {

  private static byte[] message(String boundary, byte[]... bodies) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MultipartWriter w = new MultipartWriter(out, boundary);
    for (byte[] body : bodies) {
      w.writePart(MimeHeaders.EMPTY, body);
    }
    w.close();
    return out.toByteArray();
  }

  private static MultipartReader reader(String boundary, byte[]... bodies) throws IOException {
    return MultipartReader.builder(
        new ByteArrayInputStream(message(boundary, bodies)), boundary).build();
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void readersThatEndHandTheirBufferOnWithoutMixingMessages() throws Exception {
    byte[] a1 = random(40_000, 1);
    byte[] a2 = random(300, 2);
    byte[] b1 = random(50_000, 3);
    MultipartReader a = reader("a", a1, a2);
    Part first = a.nextPart();
    byte[] head = first.body().readNBytes(1000); // a is mid-message: keeps its buffer
    for (int round = 0; round < 20; round++) { // each b ends and gives its buffer back
      MultipartReader b = reader("b" + round, b1);
      assertThat(b.nextPart().body().readAllBytes()).isEqualTo(b1);
      assertThat(b.nextPart()).isNull();
    }
    byte[] rest = first.body().readAllBytes();
    assertThat(concat(head, rest)).isEqualTo(a1);
    assertThat(a.nextPart().body().readAllBytes()).isEqualTo(a2);
    assertThat(a.nextPart()).isNull();
  }

  @Test
  void aClosedReaderRefusesToReadBodies() throws Exception {
    MultipartReader r = reader("c", random(20_000, 4));
    InputStream body = r.nextPart().body();
    body.readNBytes(10);
    r.close();
    assertThatThrownBy(() -> body.read(new byte[4096])).isInstanceOf(IOException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> body.transferTo(OutputStream.nullOutputStream()))
        .isInstanceOf(IOException.class).hasMessageContaining("closed");
    assertThatThrownBy(r::nextPart).hasMessageContaining("closed");
  }

  @Test
  void aReadLongerThanTheBufferThatEndsAPartEarlyKeepsTheNextParts() throws Exception {
    byte[] small = random(100, 5);
    byte[] big = random(40_000, 6);
    byte[] tail = random(30, 7);
    MultipartReader r = reader("d", small, big, small, tail);
    byte[] buf = new byte[128 * 1024]; // one read takes the whole message
    for (byte[] expected : new byte[][] {small, big, small, tail}) {
      InputStream body = r.nextPart().body();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      for (int n; (n = body.read(buf, 0, buf.length)) >= 0; ) {
        got.write(buf, 0, n);
      }
      assertThat(got.toByteArray()).isEqualTo(expected);
    }
    assertThat(r.nextPart()).isNull();
  }

  /**
   * A reader closed before its end (a consumer that took the part it wanted) gives its buffers
   * back: the next readers take them instead of allocating their own (7-11 KiB and a 4 KiB
   * table each, when only a reader read to its end gave them back).
   */
  @Test
  void readersClosedBeforeTheirEndGiveTheirBuffersBack() throws Exception {
    byte[] message = message("e", random(100, 8), random(30_000, 9));
    long[] allocated = new long[300];
    for (int round = 0; round < allocated.length; round++) {
      long before = Allocations.currentThread();
      MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(message), "e").build();
      r.nextPart().body().readNBytes(10);
      r.close();
      allocated[round] = Allocations.currentThread() - before;
    }
    Arrays.sort(allocated); // the median: the pool's first takes hit either way
    assertThat(allocated[allocated.length / 2]).as("bytes allocated by a reader closed early")
        .isLessThan(3000);
  }

  /**
   * A close from another thread while a read is blocked gives the buffer back once, when the
   * read ends: given twice, two later readers would share one array and mix their messages.
   */
  @Test
  void aCloseDuringABlockedReadGivesTheBufferBackOnceWhenTheReadEnds() throws Exception {
    byte[] message = message("f", random(50_000, 10));
    for (int round = 0; round < 20; round++) {
      CountDownLatch reading = new CountDownLatch(1);
      CountDownLatch closed = new CountDownLatch(1);
      InputStream gate = new FilterInputStream(new ByteArrayInputStream(message)) {
        private int reads;

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (++reads == 2) { // the first body read after the headers: wait for the close
            reading.countDown();
            try {
              closed.await();
            } catch (InterruptedException e) {
              throw new InterruptedIOException();
            }
          }
          return super.read(b, off, len);
        }
      };
      MultipartReader r = MultipartReader.builder(gate, "f").build();
      InputStream body = r.nextPart().body();
      Thread reader = Thread.ofVirtual().start(() -> {
        try {
          body.readAllBytes();
        } catch (IOException e) {
          // the reader was closed: expected
        }
      });
      reading.await();
      r.close();
      closed.countDown();
      reader.join();
      // Two readers mid-message at once: a buffer given back twice would be in both.
      byte[] x = random(40_000, round);
      byte[] y = random(40_000, round + 100);
      MultipartReader rx = reader("x", x);
      MultipartReader ry = reader("y", y);
      InputStream bx = rx.nextPart().body();
      InputStream by = ry.nextPart().body();
      byte[] hx = bx.readNBytes(5000);
      byte[] hy = by.readNBytes(5000);
      assertThat(concat(hx, bx.readAllBytes())).isEqualTo(x);
      assertThat(concat(hy, by.readAllBytes())).isEqualTo(y);
    }
  }

  /**
   * An envelope read in long chunks, arriving after its headers, leaves the attachment after it
   * in the reader's own buffer: a direct read as long as the chunk took the whole attachment
   * and, the envelope ending early in it, copied it into a new array of its size.
   */
  @Test
  void aShortPartReadInLongChunksLeavesNoCopyOfTheNextPart() throws Exception {
    byte[] root = random(600, 11);
    byte[] attachment = random(32 * 1024, 12);
    byte[] message = message("g", root, attachment);
    byte[] chunk = new byte[64 * 1024];
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 3000; round++) { // the vector scan allocates until compiled
      InputStream arriving = new SequenceInputStream(
          new ByteArrayInputStream(message, 0, 50),
          new ByteArrayInputStream(message, 50, message.length - 50));
      long before = Allocations.currentThread();
      MultipartReader r = MultipartReader.builder(arriving, "g").build();
      int n = r.nextPart().body().readNBytes(chunk, 0, chunk.length);
      InputStream next = r.nextPart().body();
      long skipped = next.transferTo(OutputStream.nullOutputStream());
      assertThat(r.nextPart()).isNull();
      least = Math.min(least, Allocations.currentThread() - before);
      assertThat(n).isEqualTo(root.length);
      assertThat(Arrays.copyOf(chunk, n)).isEqualTo(root);
      assertThat(skipped).isEqualTo(attachment.length);
    }
    assertThat(least).as("bytes allocated reading the two parts").isLessThan(8 * 1024);
  }

  private static byte[] concat(byte[] x, byte[] y) {
    byte[] z = new byte[x.length + y.length];
    System.arraycopy(x, 0, z, 0, x.length);
    System.arraycopy(y, 0, z, x.length, y.length);
    return z;
  }
}
