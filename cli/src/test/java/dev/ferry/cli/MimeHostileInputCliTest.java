package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a sender controls must not reach the terminal raw, shift a TSV or leave a cut file. */
class MimeHostileInputCliTest {
  private static final String HOSTILE_ID = "a\tb\u001b[2J\u001b]0;pwned\u0007\u202e@x";

  @TempDir Path dir;

  private Path message(String parts) throws Exception {
    return Files.write(dir.resolve("msg.eml"), ("Content-Type: multipart/related; boundary=b"
        + "\r\n\r\n" + parts).getBytes(StandardCharsets.UTF_8));
  }

  private Path hostile() throws Exception {
    return message("--b\r\nContent-ID: <" + HOSTILE_ID + ">\r\nContent-Type: text/plain;"
        + " x=\"\u001b[1m\"\r\n\r\nhello\r\n--b\r\nContent-ID: <second>\r\n\r\nworld\r\n--b--\r\n");
  }

  @Test
  void inspectPrintsContentIdsAndTypesEscaped() throws Exception {
    Result r = ferry("mime", "inspect", hostile().toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).doesNotContain("\u001b").doesNotContain("\u0007")
        .doesNotContain("\u202e").contains("a\\tb\\x1B[2J\\x1B]0;pwned\\x07\\u202E@x")
        .contains("x=\"\\x1B[1m\"");
    for (String line : r.out().split("\n")) {
      assertThat(line).doesNotContain("\t");
    }
  }

  @Test
  void inspectJsonKeepsTheValueExactlyAsJsonEscapes() throws Exception {
    Result r = ferry("mime", "inspect", "--json", hostile().toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("\"contentId\":\"a\\u0009b\\u001b[2J\\u001b]0;pwned\\u0007"
        + "\u202e@x\"").contains("\"warnings\":[]");
  }

  @Test
  void unpackWritesAnIndexWhoseColumnsHold() throws Exception {
    Path out = dir.resolve("out");
    Result r = ferry("mime", "unpack", hostile().toString(), "-d", out.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).doesNotContain("\u001b").contains("a\\tb\\x1B[2J");
    List<String> index = Files.readAllLines(out.resolve("index.tsv"));
    assertThat(index).hasSize(3);
    for (String line : index) {
      assertThat(line.split("\t", -1)).hasSize(4);
    }
    assertThat(index.get(1)).startsWith("part-0.txt\ta\\tb\\x1B[2J");
    assertThat(Files.readString(out.resolve("part-0.txt"))).isEqualTo("hello");
  }

  @Test
  void unpackOfATruncatedMessageLeavesNoPartialFile() throws Exception {
    byte[] whole = Files.readAllBytes(hostile());
    Path cut = Files.write(dir.resolve("cut.eml"),
        java.util.Arrays.copyOf(whole, whole.length - 12)); // inside the second part's body
    Path out = dir.resolve("out");
    Result r = ferry("mime", "unpack", cut.toString(), "-d", out.toString());
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.err()).contains("missing closing delimiter").contains("[part 1 > body]");
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("part-0.txt");
    }
    assertThat(Files.readString(out.resolve("part-0.txt"))).isEqualTo("hello");
  }

  @Test
  void lenientHeadersReadPastAMalformedFieldWithAWarning() throws Exception {
    Path m = message("--b\r\nGr\u00f6\u00dfe: 1\r\nContent-Type: application/pdf;"
        + " name==?UTF-8?B?w6Q=?=\r\n\r\n%PDF\r\n--b--\r\n");
    Result strict = ferry("mime", "inspect", m.toString());
    assertThat(strict.exit()).isEqualTo(3);
    assertThat(strict.err()).contains("invalid byte 0xC3 in header name at byte 7");
    Result lenient = ferry("mime", "inspect", "--lenient-headers", m.toString());
    assertThat(lenient.exit()).as(lenient.err()).isZero();
    assertThat(lenient.out()).contains("application/pdf");
    assertThat(lenient.err()).contains("ferry: warning: invalid byte 0xC3 in header name;"
        + " field left out at byte 7 [part 0 > headers]").contains("kept as written");
    Result json = ferry("mime", "inspect", "--lenient-headers", "--json", m.toString());
    assertThat(json.out()).contains("\"warnings\":[\"invalid byte 0xC3");
  }
}
