package dev.ferry.xop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The roots one codec's packages hold at once are bounded, and given back as they close. */
class RootBudgetTest {
  private static final XopCodec CODEC = XopCodec.builder().limits(XopLimits.builder()
      .maxHeldRootBytes(1000).build()).build();

  private static XopPackage read(int bytes, boolean withLength) throws IOException {
    byte[] root = ("<r>" + "x".repeat(bytes - 7) + "</r>").getBytes(StandardCharsets.US_ASCII);
    return CODEC.read(new ByteArrayInputStream(root), CODEC.contentType("text/xml"),
        withLength ? root.length : -1);
  }

  @Test
  void aRootThatWouldPassTheBudgetIsRefusedUntilAnotherIsClosed() throws IOException {
    for (boolean withLength : new boolean[] {true, false}) {
      XopPackage first = read(600, withLength);
      assertThatThrownBy(() -> read(600, withLength)).as("length known: %s", withLength)
          .isInstanceOf(XopException.class)
          .hasMessageContaining("XopLimits.maxHeldRootBytes exceeded: 1200 > 1000");
      first.close();
      first.close(); // once only
      try (XopPackage second = read(600, withLength); XopPackage third = read(400, withLength)) {
        assertThat(second.root().size() + third.root().size()).isEqualTo(1000);
      }
    }
  }
}
