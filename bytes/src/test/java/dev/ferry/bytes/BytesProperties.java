package dev.ferry.bytes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class BytesProperties {

  @Property
  void builderConcatenatesWhateverTheChunks(@ForAll @Size(max = 20) List<byte[]> chunks) {
    ByteStringBuilder b = new ByteStringBuilder(0);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (byte[] c : chunks) {
      b.append(c);
      expected.writeBytes(c);
    }
    assertThat(b.toByteString().toByteArray()).isEqualTo(expected.toByteArray());
  }

  @Property
  void slicesEqualCopies(@ForAll byte[] data, @ForAll @IntRange(max = 300) int from,
      @ForAll @IntRange(max = 300) int count) {
    int offset = Math.min(from, data.length);
    int n = Math.min(count, data.length - offset);
    ByteString slice = ByteString.of(data).subSequence(offset, n);
    ByteString copy = ByteString.copyOf(data, offset, n);
    assertThat(slice).isEqualTo(copy).hasSameHashCodeAs(copy);
    assertThat(slice.compareTo(copy)).isZero();
  }

  @Property
  void hexAndBase64RoundTrip(@ForAll byte[] data) {
    ByteString s = ByteString.of(data);
    assertThat(ByteString.decodeHex(s.hex())).isEqualTo(s);
    assertThat(ByteString.decodeBase64(s.base64())).isEqualTo(s);
  }

  @Property
  void handedOutStringsNeverChange(@ForAll byte[] first, @ForAll byte[] second,
      @ForAll @IntRange(max = 10) int patchAt) {
    ByteStringBuilder b = new ByteStringBuilder(4);
    b.append(first);
    ByteString handedOut = b.toByteString();
    b.append(second);
    if (patchAt < b.size()) {
      b.set(patchAt, (byte) ~b.byteAt(patchAt));
    }
    b.clear().append(second);
    assertThat(handedOut.toByteArray()).isEqualTo(first);
  }
}
