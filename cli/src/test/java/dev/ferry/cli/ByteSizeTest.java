package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizeTest {
  @Test
  void parsesTheWaysPeopleWriteSizes() {
    assertThat(ByteSize.parse("256")).isEqualTo(256);
    assertThat(ByteSize.parse("256B")).isEqualTo(256);
    assertThat(ByteSize.parse("4k")).isEqualTo(4096);
    assertThat(ByteSize.parse("4KiB")).isEqualTo(4096);
    assertThat(ByteSize.parse(" 12M ")).isEqualTo(12 * 1024 * 1024);
    assertThat(ByteSize.parse("12 MiB")).isEqualTo(12 * 1024 * 1024);
  }

  @Test
  void refusesWhatIsNotASize() {
    assertThatThrownBy(() -> ByteSize.parse("lots")).hasMessageContaining("not a size: 'lots'");
    assertThatThrownBy(() -> ByteSize.parse("0")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> ByteSize.parse("-4K")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> ByteSize.parse("4096M")).hasMessageContaining("out of range");
  }

  @Test
  void formatsInTheLargestUnitThatDividesExactly() {
    assertThat(ByteSize.format(256)).isEqualTo("256 B");
    assertThat(ByteSize.format(1024)).isEqualTo("1 KiB");
    assertThat(ByteSize.format(1536)).isEqualTo("1536 B");
    assertThat(ByteSize.format(64 * 1024)).isEqualTo("64 KiB");
    assertThat(ByteSize.format(12 * 1024 * 1024)).isEqualTo("12 MiB");
    assertThat(ByteSize.format(1024 * 1024 + 1024)).isEqualTo("1025 KiB");
  }
}
