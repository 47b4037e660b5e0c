package dev.ferry.broker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the subset refuses, and that the refusal names the part and says why. */
class PathCompilerTest {
  private static final Map<String, String> NS = Map.of("q", "urn:q");

  @Test
  void compilesTheSubset() {
    for (String e : new String[] {"//order[1]/symbol = 'IBM'", "/q:buy/q:order[@type='x'][2]",
        "q:buy//*:symbol/text() != \"x\"", "//order/@qty >= 10", "//q:*[@q:id]",
        "child::a/b[. = 'v']", "//price < -1.5", "*"}) {
      assertThat(PathCompiler.compile(e, NS).expression()).isEqualTo(e);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '#', value = {
      "//order/..# the parent step .. looks back # 9",
      "//order/parent::x# the parent:: axis looks back # 9",
      "//a/following-sibling::b# the following-sibling:: axis is not in the subset # 5",
      "//order[last()]# last() needs the number of siblings # 9",
      "//order[symbol = 'IBM']# a predicate on a child's value # 9",
      "//a | //b# a union (|) is not in the subset # 5",
      "//a = 'x' or //b# or is not in the subset # 11",
      "//x:order# the prefix x is not declared # 3",
      "count(//a) > 1# functions are not in the subset # 1",
      "//a[.='x']/b# a text test on the step a that has steps after it # 0",
      "//a[.='x'][1]# a position after a text test # 0",
      "//a = $v# variables are not in the subset # 7",
      "//a < 'x'# < compares numbers # 7",
      "//a[0]# a position must be from 1 # 5",
      "//a/@b/c# a step after an attribute # 7",
      "//a[@*]# @* is not in the subset # 7",
      "//a[1# unexpected end # 6",
  })
  void refusesWhatAStreamingPassCannotDecideSayingWhy(String expr, String why, int at) {
    assertThatThrownBy(() -> PathCompiler.compile(expr, NS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("body path \"" + expr + "\": ")
        .hasMessageContaining(why)
        .satisfies(e -> {
          if (at > 0) {
            assertThat(e.getMessage()).endsWith("(at character " + at + ")");
          }
        });
  }
}
