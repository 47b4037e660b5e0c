package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MimeHeadersTest {

  @Test
  void builtHeadersDoNotChangeWhenTheBuilderGoesOn() {
    MimeHeaders.Builder b = MimeHeaders.builder().add("A", "1").add("B", "2");
    MimeHeaders first = b.build();
    MimeHeaders second = b.add("C", "3").build();
    MimeHeaders third = b.set("a", "4").build(); // set: remove every A, then add
    b.remove("B").add("D", "5").add("E", "6").add("F", "7").add("G", "8");
    assertThat(first.fields()).extracting(MimeHeaders.Field::name).containsExactly("A", "B");
    assertThat(second.fields()).extracting(MimeHeaders.Field::name)
        .containsExactly("A", "B", "C");
    assertThat(third.fields()).extracting(MimeHeaders.Field::name)
        .containsExactly("B", "C", "a");
    assertThat(b.build().fields()).extracting(MimeHeaders.Field::value)
        .containsExactly("3", "4", "5", "6", "7", "8");
    assertThat(MimeHeaders.builder().addAll(first).addAll(second).build().size()).isEqualTo(5);
    assertThatThrownBy(() -> first.fields().add(new MimeHeaders.Field("X", "y")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(MimeHeaders.builder().add("A", "1").add("B", "2").build()).isEqualTo(first)
        .hasSameHashCodeAs(first);
  }

  @Test
  void valuesAreStrippedOfSurroundingWhitespaceOnly() {
    MimeHeaders h = MimeHeaders.builder().add("A", " x y\t").add("B", "\u001fz")
        .add("C", "").add("D", "plain").build();
    assertThat(h.fields()).extracting(MimeHeaders.Field::value)
        .isEqualTo(List.of("x y", "z", "", "plain"));
  }
}
