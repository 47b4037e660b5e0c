package dev.ferry.bytes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ByteStringTest {

  @Test
  void subSequenceSharesTheArray() {
    ByteString s = ByteString.encodeUtf8("Hello, Ferry");
    ByteString ferry = s.subSequence(7, 5);
    assertThat(ferry.utf8()).isEqualTo("Ferry");
    assertThat(ferry.array()).isSameAs(s.array());
    assertThat(ferry.subSequence(1).utf8()).isEqualTo("erry");
    assertThat(s.subSequence(0, s.size())).isSameAs(s);
  }

  @Test
  void factoriesCopyTheirInput() {
    byte[] src = {1, 2, 3};
    ByteString s = ByteString.of(src);
    src[0] = 9;
    assertThat(s.byteAt(0)).isEqualTo((byte) 1);
    ByteString part = ByteString.copyOf(src, 1, 2);
    src[1] = 7;
    assertThat(part.hex()).isEqualTo("0203");
  }

  @Test
  void takingOwnershipSharesTheArrayItself() {
    byte[] pdu = {1, 2, 3, 4};
    ByteString whole = ByteString.takeOwnership(pdu);
    ByteString part = ByteString.takeOwnership(pdu, 1, 2);
    assertThat(whole.array()).isSameAs(pdu);
    assertThat(part.array()).isSameAs(pdu);
    assertThat(part.hex()).isEqualTo("0203");
    pdu[1] = 9; // what the caller promised not to do: it shows through, proving there is no copy
    assertThat(part.hex()).isEqualTo("0903");
    assertThat(ByteString.takeOwnership(new byte[0])).isSameAs(ByteString.EMPTY);
    assertThatThrownBy(() -> ByteString.takeOwnership(pdu, 3, 2))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void equalityAndHashFollowContentNotStorage() {
    ByteString a = ByteString.encodeUtf8("xxabcxx").subSequence(2, 3);
    ByteString b = ByteString.encodeUtf8("abc");
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(ByteString.encodeUtf8("abd"));
    assertThat(ByteString.EMPTY).isEqualTo(ByteString.of());
    assertThat(ByteString.EMPTY.hashCode()).isZero();
  }

  @Test
  void comparesUnsigned() {
    ByteString low = ByteString.of((byte) 0x01);
    ByteString high = ByteString.of((byte) 0xff);
    assertThat(low.compareTo(high)).isNegative();
    assertThat(low.compareTo(ByteString.of((byte) 1, (byte) 0))).isNegative();
    assertThat(high.compareTo(high)).isZero();
  }

  @Test
  void hexAndBase64RoundTrip() {
    ByteString s = ByteString.decodeHex("00 ff 10\n7f");
    assertThat(s.hex()).isEqualTo("00ff107f");
    assertThat(s.base64()).isEqualTo("AP8Qfw==");
    assertThat(ByteString.decodeBase64("AP8Qfw==")).isEqualTo(s);
    assertThat(ByteString.decodeBase64("AP8Qfw")).isEqualTo(s);
  }

  @Test
  void badHexNamesTheCharacter() {
    assertThatThrownBy(() -> ByteString.decodeHex("0g"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'g' at index 1");
    assertThatThrownBy(() -> ByteString.decodeHex("abc"))
        .hasMessageContaining("odd number");
  }

  @Test
  void boundsErrorsSayWhatWasAsked() {
    ByteString s = ByteString.encodeUtf8("abc");
    assertThatThrownBy(() -> s.byteAt(3)).isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessage("index=3 size=3");
    assertThatThrownBy(() -> s.subSequence(2, 2)).isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessage("size=3 offset=2 byteCount=2");
    assertThatThrownBy(() -> s.subSequence(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void searchesAndAffixes() {
    ByteString s = ByteString.encodeUtf8("--boundary--");
    assertThat(s.indexOf(ByteString.encodeUtf8("bound"), 0)).isEqualTo(2);
    assertThat(s.indexOf(ByteString.encodeUtf8("bound"), 3)).isEqualTo(-1);
    assertThat(s.indexOf((byte) '-', 3)).isEqualTo(10);
    assertThat(s.startsWith(ByteString.encodeUtf8("--b"))).isTrue();
    assertThat(s.endsWith(ByteString.encodeUtf8("y--"))).isTrue();
    assertThat(s.endsWith(ByteString.encodeUtf8("x--"))).isFalse();
    // a slice searches within itself; a first byte that repeats; an empty target
    ByteString slice = ByteString.encodeUtf8("xx--a--ab--").subSequence(2, 9);
    assertThat(slice.indexOf(ByteString.encodeUtf8("--ab"), 0)).isEqualTo(3);
    assertThat(slice.indexOf(ByteString.encodeUtf8("b--"), 0)).isEqualTo(6);
    assertThat(slice.indexOf(ByteString.encodeUtf8("b---"), 0)).isEqualTo(-1);
    assertThat(slice.indexOf(ByteString.EMPTY, 4)).isEqualTo(4);
    assertThat(slice.indexOf(ByteString.EMPTY, 10)).isEqualTo(-1);
  }

  @Test
  void readsExactlyFromAStream() throws Exception {
    ByteString s = ByteString.readFrom(new ByteArrayInputStream(new byte[] {5, 6, 7}), 2);
    assertThat(s.hex()).isEqualTo("0506");
    assertThatThrownBy(() -> ByteString.readFrom(new ByteArrayInputStream(new byte[1]), 2))
        .isInstanceOf(EOFException.class).hasMessageContaining("after 1");
  }

  @Test
  void viewsShareWithoutCopy() throws Exception {
    ByteString s = ByteString.encodeUtf8("abcdef").subSequence(1, 4);
    ByteBuffer bb = s.asByteBuffer();
    assertThat(bb.isReadOnly()).isTrue();
    assertThat(bb.remaining()).isEqualTo(4);
    assertThat(bb.get(0)).isEqualTo((byte) 'b');
    assertThat(s.asInputStream().readAllBytes()).isEqualTo("bcde".getBytes());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.writeTo(out);
    assertThat(out.toString()).isEqualTo("bcde");
  }

  @Test
  void toStringQuotesAtMost32Bytes() {
    assertThat(ByteString.of((byte) 1).toString()).isEqualTo("[size=1 hex=01]");
    assertThat(ByteString.of(new byte[40]).toString()).endsWith("…]").contains("size=40");
  }
}
