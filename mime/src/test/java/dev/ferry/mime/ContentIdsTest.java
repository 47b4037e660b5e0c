package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ContentIdsTest {

  @Test
  void stripsBracketsAndDecodesUrls() {
    assertThat(ContentIds.strip(" <1.x@ferry.dev> ")).isEqualTo("1.x@ferry.dev");
    assertThat(ContentIds.strip("SOAPPart")).isEqualTo("SOAPPart");
    assertThat(ContentIds.fromCidUrl("cid:1.x%40ferry.dev")).isEqualTo("1.x@ferry.dev");
    // a well-known .NET stack encodes ':' and '/' as well
    assertThat(ContentIds.fromCidUrl("CID:http%3A%2F%2Fexample.org%2Fme.png"))
        .isEqualTo("http://example.org/me.png");
    assertThat(ContentIds.fromCidUrl("cid:%3C1.x@y%3E")).isEqualTo("1.x@y");
    assertThat(ContentIds.isCidUrl("http://evil/")).isFalse();
  }

  @Test
  void encodesOnlyWhatAUrlMust() {
    assertThat(ContentIds.toCidUrl("<1.abc@ferry.dev>")).isEqualTo("cid:1.abc@ferry.dev");
    assertThat(ContentIds.toCidUrl("a b%c")).isEqualTo("cid:a%20b%25c");
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> ContentIds.fromCidUrl("http://x"))
        .hasMessageContaining("not a cid: URL");
    assertThatThrownBy(() -> ContentIds.fromCidUrl("cid:%4"))
        .hasMessageContaining("bad percent escape at index 0");
  }

  @Property
  void urlRoundTrip(@ForAll String id) {
    String bare = ContentIds.strip(id);
    net.jqwik.api.Assume.that(bare.equals(ContentIds.strip(bare)));
    assertThat(ContentIds.fromCidUrl(ContentIds.toCidUrl(bare))).isEqualTo(bare);
  }
}
