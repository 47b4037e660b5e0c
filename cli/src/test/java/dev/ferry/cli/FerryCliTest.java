package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives the command line as a user would: arguments in, exit code, output and files out. */
class FerryCliTest {
  @TempDir Path dir;

  record Result(int exit, String out, String err) {}

  static Result ferry(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Ferry.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(exit, out.toString(), err.toString());
  }

  static Path sample() {
    Path p = Path.of("..", "samples", "mtom-echo.eml");
    assertThat(p).exists();
    return p;
  }

  @Test
  void inspectsTheShippedSample() {
    Result r = ferry("mime", "inspect", sample().toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("2 parts").contains("root.message@ferry.dev")
        .contains("attachinfo-1@ferry.dev").containsPattern("binary\\s+4096\\s+4096");
  }

  @Test
  void inspectPrintsJson() {
    Result r = ferry("mime", "inspect", "--json", sample().toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("{\"contentType\":\"multipart/related;")
        .contains("\"decodedBytes\":4096");
  }

  @Test
  void packThenUnpackGivesBackTheFiles() throws Exception {
    byte[] blob = new byte[300_000];
    new Random(3).nextBytes(blob);
    Path root = Files.writeString(dir.resolve("root.xml"), "<a/>");
    Path bin = Files.write(dir.resolve("blob.bin"), blob);
    Path msg = dir.resolve("msg.eml");
    Result packed = ferry("mime", "pack", "-o", msg.toString(), root + ":text/xml",
        bin + ":image/png", "--start-info", "text/xml");
    assertThat(packed.exit()).as(packed.err()).isZero();
    assertThat(packed.out()).contains("cid:1.").contains("cid:2.");
    Result inspected = ferry("mime", "inspect", msg.toString());
    assertThat(inspected.out()).contains("2 parts").contains("image/png");
    Path out = dir.resolve("out");
    Result unpacked = ferry("mime", "unpack", msg.toString(), "-d", out.toString());
    assertThat(unpacked.exit()).isZero();
    assertThat(Files.readString(out.resolve("part-0.xml"))).isEqualTo("<a/>");
    assertThat(Files.readAllBytes(out.resolve("part-1.png"))).isEqualTo(blob);
    assertThat(Files.readString(out.resolve("index.tsv"))).contains("part-1.png\t2.");
  }

  @Test
  void badInputExitsWith3AndSaysWhereWithoutAStackTrace() throws Exception {
    byte[] sample = Files.readAllBytes(sample());
    Path cut = Files.write(dir.resolve("cut.eml"),
        java.util.Arrays.copyOf(sample, sample.length - 100));
    Result r = ferry("mime", "inspect", cut.toString());
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.err()).contains("missing closing delimiter").contains("at byte")
        .contains("[part 1 > body]").doesNotContain("\tat ");
    Result verbose = ferry("--verbose", "mime", "inspect", cut.toString());
    assertThat(verbose.err()).contains("\tat dev.ferry");
  }

  @Test
  void bareBodyAndLfOnlyMessagesAreSniffed() throws Exception {
    Path body = Files.write(dir.resolve("body.bin"),
        "--xyz\nA: 1\n\nhello\n--xyz--\n".getBytes(StandardCharsets.US_ASCII));
    Result r = ferry("mime", "inspect", body.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("1 parts (bare LF line ends accepted)");
    Result strict = ferry("mime", "inspect", "--line-ends", "STRICT", body.toString());
    assertThat(strict.exit()).isEqualTo(3);
  }

  @Test
  void usageErrorsExitWith2AndHelpHasExamples() {
    assertThat(ferry("mime", "inspect").exit()).isEqualTo(2);
    assertThat(ferry("nonsense").exit()).isEqualTo(2);
    Result help = ferry("--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("Examples:").contains("ferry mime inspect");
    assertThat(ferry("mime", "inspect", "no/such/file").err()).contains("no such file");
    assertThat(ferry("mime", "inspect", "no/such/file").exit()).isEqualTo(4);
  }
}
