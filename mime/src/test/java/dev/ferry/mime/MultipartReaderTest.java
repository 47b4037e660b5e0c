package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Random;
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

  private static byte[] concat(byte[] x, byte[] y) {
    byte[] z = new byte[x.length + y.length];
    System.arraycopy(x, 0, z, 0, x.length);
    System.arraycopy(y, 0, z, x.length, y.length);
    return z;
  }
}
