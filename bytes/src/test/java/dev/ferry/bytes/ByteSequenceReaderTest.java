package dev.ferry.bytes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSequenceReaderTest {

  @Test
  void readsValuesAsSlices() throws Exception {
    ByteString pdu = ByteString.decodeHex("02 03 414243 00010002 ff");
    ByteSequenceReader r = pdu.newReader();
    assertThat(r.readUnsignedByte()).isEqualTo(2);
    int n = r.readUnsignedByte();
    ByteString value = r.readByteString(n);
    assertThat(value.utf8()).isEqualTo("ABC");
    assertThat(value.array()).isSameAs(pdu.array());
    assertThat(r.readUnsignedShort()).isEqualTo(1);
    assertThat(r.peekByte()).isEqualTo((byte) 0);
    assertThat(r.peekByte(1)).isEqualTo((byte) 2);
    r.skip(2);
    assertThat(r.readUnsignedByte()).isEqualTo(255);
    assertThat(r.hasRemaining()).isFalse();
  }

  @Test
  void truncationIsADecodeExceptionWithTheOffset() throws Exception {
    ByteSequenceReader r = new ByteSequenceReader(ByteString.decodeHex("0102"), 100);
    r.readByte();
    DecodeException e = org.junit.jupiter.api.Assertions.assertThrows(DecodeException.class,
        r::readInt);
    assertThat(e.byteOffset()).isEqualTo(101);
    assertThat(e.reason()).contains("expected: 4 more bytes, found: 1");
    assertThat(e.getMessage()).endsWith("at byte 101");
    assertThat(r.request(1)).isTrue();
    assertThat(r.request(2)).isFalse();
  }

  @Test
  void positionsAndReadsIntoArrays() throws Exception {
    ByteSequenceReader r = ByteString.encodeUtf8("xhello").subSequence(1).newReader();
    byte[] dest = new byte[7];
    r.readBytes(dest, 1, 5);
    assertThat(new String(dest, 1, 5)).isEqualTo("hello");
    r.position(1);
    assertThat(r.readUtf8(4)).isEqualTo("ello");
    assertThatThrownBy(() -> r.position(6)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void readsABuilderSnapshot() throws Exception {
    ByteStringBuilder b = new ByteStringBuilder().appendUtf8("ab");
    ByteSequenceReader r = new ByteSequenceReader(b);
    b.set(0, (byte) 'z');
    assertThat(r.readUtf8(2)).isEqualTo("ab");
  }
}
