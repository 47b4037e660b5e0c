package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrintableTest {

  @Test
  void controlAndInvisibleCharactersBecomeEscapes() {
    assertThat(Printable.escape("a\tb\nc\rd\\e")).isEqualTo("a\\tb\\nc\\rd\\\\e");
    assertThat(Printable.escape("\u001b[31mred\u007f\u0085")).isEqualTo("\\x1B[31mred\\x7F\\x85");
    // right-to-left override, zero-width space, line separator: they hide or reorder text
    assertThat(Printable.escape("a\u202eb\u200bc\u2028d")).isEqualTo("a\\u202Eb\\u200Bc\\u2028d");
  }

  @Test
  void printableTextIsUnchangedNonAsciiIncluded() {
    String s = "<1.abc@ferry.dev> Grüße 日本 \uD83D\uDE00";
    assertThat(Printable.escape(s)).isSameAs(s);
    assertThat(Printable.escape(null)).isNull();
    assertThat(Printable.escape("\uD800x")).isEqualTo("\\uD800x"); // a lone surrogate
  }
}
