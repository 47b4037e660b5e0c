package dev.ferry.xop.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The pooled encoder writes what {@code String.getBytes(UTF_8)} makes, however it is fed. */
class PooledUtf8WriterProperties {

  /** Text of every width (pairs split across writes included), in random pieces and ways. */
  @Property(tries = 400)
  void encodesAsTheJdkDoes(@ForAll @IntRange(min = 0, max = 20_000) int chars,
      @ForAll long seed) throws IOException {
    Random random = new Random(seed);
    String text = text(random, chars);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PooledUtf8Writer w = new PooledUtf8Writer(out);
    for (int at = 0; at < text.length(); ) {
      int n = Math.min(text.length() - at, 1 + random.nextInt(6000));
      switch (random.nextInt(3)) {
        case 0 -> w.write(text.toCharArray(), at, n);
        case 1 -> w.write(text, at, n);
        default -> {
          n = 1;
          w.write(text.charAt(at));
        }
      }
      at += n;
    }
    w.flush();
    assertThat(out.toByteArray()).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    w.release();
  }

  @Test
  void anUnpairedSurrogateIsAnError() throws IOException {
    assertThatThrownBy(() -> new PooledUtf8Writer(new ByteArrayOutputStream()).write("a\uDC00"))
        .isInstanceOf(IOException.class).hasMessageContaining("U+DC00");
    assertThatThrownBy(() -> new PooledUtf8Writer(new ByteArrayOutputStream()).write("\uD800b"))
        .isInstanceOf(IOException.class).hasMessageContaining("U+D800");
    PooledUtf8Writer open = new PooledUtf8Writer(new ByteArrayOutputStream());
    open.write("x\uD83D");
    assertThatThrownBy(open::close).isInstanceOf(IOException.class)
        .hasMessageContaining("U+D83D");
  }

  @Test
  void aReleasedWriterRefusesWrites() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PooledUtf8Writer w = new PooledUtf8Writer(out);
    w.write("héllo");
    w.close();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("héllo");
    w.release(); // after close: harmless
    assertThatThrownBy(() -> w.write("more")).isInstanceOf(IOException.class)
        .hasMessageContaining("released");
  }

  /** ASCII runs, two- and three-byte chars and surrogate pairs, mixed. */
  private static String text(Random random, int chars) {
    StringBuilder b = new StringBuilder(chars + 2);
    while (b.length() < chars) {
      switch (random.nextInt(5)) {
        case 0, 1 -> b.append((char) (0x20 + random.nextInt(0x5f)));
        case 2 -> b.append((char) (0x80 + random.nextInt(0x780)));
        case 3 -> {
          char c = (char) (0x800 + random.nextInt(0xf7ff));
          b.append(Character.isSurrogate(c) ? 'x' : c);
        }
        default -> b.appendCodePoint(0x10000 + random.nextInt(0xfffff));
      }
    }
    return b.toString();
  }
}
