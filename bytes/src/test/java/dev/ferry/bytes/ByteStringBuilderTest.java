package dev.ferry.bytes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ByteStringBuilderTest {

  @Test
  void appendsFromEverySource() throws Exception {
    ByteStringBuilder b = new ByteStringBuilder(1);
    b.append((byte) 'a').append("bc".getBytes()).append("xdex".getBytes(), 1, 2)
        .append(ByteBuffer.wrap("fg".getBytes())).append(ByteString.encodeUtf8("h"))
        .appendUtf8("é");
    b.appendFrom(new ByteArrayInputStream("ij".getBytes()));
    b.appendFrom(new ByteArrayInputStream("klm".getBytes()), 2);
    assertThat(b.toByteString().utf8()).isEqualTo("abcdefghéijkl");
  }

  @Test
  void handsOutWithoutCopyAndKeepsHandedOutBytesIntact() {
    ByteStringBuilder b = new ByteStringBuilder(64);
    b.appendUtf8("abc");
    ByteString first = b.toByteString();
    b.appendUtf8("def"); // writes past the shared range: allowed, no copy
    assertThat(first.utf8()).isEqualTo("abc");
    ByteString second = b.toByteString();
    assertThat(second.array()).isSameAs(first.array());
    b.set(0, (byte) 'X'); // would overwrite shared bytes: copy first
    assertThat(first.utf8()).isEqualTo("abc");
    assertThat(second.utf8()).isEqualTo("abcdef");
    assertThat(b.toByteString().utf8()).isEqualTo("Xbcdef");
    b.clear().appendUtf8("zz");
    assertThat(second.utf8()).isEqualTo("abcdef");
    assertThat(b.toByteString().utf8()).isEqualTo("zz");
  }

  @Test
  void reusedBuilderDoesNotReallocate() {
    ByteStringBuilder b = new ByteStringBuilder(16);
    b.appendUtf8("0123456789");
    ByteString before = b.subSequence(0, 1); // shares
    b.clear().appendUtf8("abc"); // moves once, then keeps the new array
    byte[] array = b.toByteString().array();
    assertThat(before.utf8()).isEqualTo("0");
    b.truncate(0);
    b.appendUtf8("q");
    assertThat(b.toByteString().array()).isNotSameAs(array); // shared again: moved
  }

  @Test
  void opensAGapForALongerLength() {
    ByteStringBuilder b = new ByteStringBuilder();
    b.append((byte) 0x04).append((byte) 0).appendUtf8("value");
    b.openGap(1, 1).set(1, (byte) 0x81).set(2, (byte) 5);
    assertThat(b.toByteString().hex()).isEqualTo("04810576616c7565");
  }

  @Test
  void exactReadFailsAtEndOfStream() {
    ByteStringBuilder b = new ByteStringBuilder();
    assertThatThrownBy(() -> b.appendFrom(new ByteArrayInputStream(new byte[3]), 4))
        .isInstanceOf(EOFException.class).hasMessageContaining("after 3");
    assertThat(b.size()).isEqualTo(3);
  }

  @Test
  void outputStreamAppends() throws Exception {
    ByteStringBuilder b = new ByteStringBuilder();
    try (var out = b.asOutputStream()) {
      out.write('a');
      out.write("bcd".getBytes(), 1, 2);
    }
    assertThat(b.toByteString().utf8()).isEqualTo("acd");
  }

  @Test
  void rejectsBadRanges() {
    ByteStringBuilder b = new ByteStringBuilder();
    assertThatThrownBy(() -> b.append(new byte[2], 1, 2))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> b.set(0, (byte) 1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new ByteStringBuilder(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("initialCapacity < 0: -1");
  }

  @Test
  void internalAccessWritesOnlyUnsharedBytes() {
    dev.ferry.bytes.internal.BytesAccess access = dev.ferry.bytes.internal.BytesAccess.get();
    ByteStringBuilder b = new ByteStringBuilder(4);
    b.appendUtf8("ab");
    ByteString shared = b.toByteString();
    b.clear(); // the array is shared: reserve must move to a fresh one
    byte[] a = access.reserve(b, 100);
    assertThat(a.length).isGreaterThanOrEqualTo(100);
    assertThat(a).isNotSameAs(shared.array());
    a[0] = 'x';
    a[1] = 'y';
    access.commit(b, 2);
    assertThat(b.toByteString().utf8()).isEqualTo("xy");
    assertThat(shared.utf8()).isEqualTo("ab");
    assertThat(access.array(shared)).isSameAs(shared.array());
    assertThat(access.arrayOffset(shared.subSequence(1))).isEqualTo(1);
    assertThatThrownBy(() -> access.commit(b, a.length)).isInstanceOf(
        IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> access.reserve(b, -1)).isInstanceOf(
        IllegalArgumentException.class);
  }
}
