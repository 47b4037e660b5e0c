package dev.ferry.interop.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code the README and the guides show is code that runs: a block under
 * {@code <!-- snippet: PATH#TAG -->} must be the region of the test source at {@code PATH}
 * (from the repository's root) between {@code // tag::TAG[]} and {@code // end::TAG[]},
 * without its common indentation. Run with {@code -Dferry.docs.update=true} to write the
 * regions into the documents instead of checking them.
 */
class DocSnippetsTest {
  private static final Pattern SNIPPET = Pattern.compile(
      "<!-- snippet: ([^#\\s]+)#([\\w-]+) -->\\n```(\\w*)\\n(.*?)```", Pattern.DOTALL);
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everySnippetIsTheCodeItNames() throws IOException {
    boolean update = Boolean.getBoolean("ferry.docs.update");
    List<String> stale = new ArrayList<>();
    int checked = 0;
    for (Path doc : documents()) {
      String text = Files.readString(doc);
      Matcher m = SNIPPET.matcher(text);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String region = region(ROOT.resolve(m.group(1)), m.group(2));
        checked++;
        if (!region.equals(m.group(4))) {
          stale.add(ROOT.relativize(doc) + ": " + m.group(1) + "#" + m.group(2));
        }
        m.appendReplacement(out, Matcher.quoteReplacement("<!-- snippet: " + m.group(1) + "#"
            + m.group(2) + " -->\n```" + m.group(3) + "\n" + region + "```"));
      }
      m.appendTail(out);
      if (update && !out.toString().equals(text)) {
        Files.writeString(doc, out.toString());
      }
    }
    assertThat(checked).as("snippets in the documents").isPositive();
    if (!update) {
      assertThat(stale).as("snippets that differ from their code (-Dferry.docs.update=true"
          + " rewrites them)").isEmpty();
    }
  }

  private static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  /** The lines between the tag's markers, with their common indentation removed. */
  static String region(Path source, String tag) throws IOException {
    List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
    int start = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).strip();
      if (t.equals("// tag::" + tag + "[]")) {
        start = i + 1;
      } else if (t.equals("// end::" + tag + "[]")) {
        end = i;
      }
    }
    if (start < 0 || end < start) {
      throw new IllegalStateException(source + " has no region " + tag);
    }
    List<String> region = lines.subList(start, end);
    int indent = region.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    StringBuilder b = new StringBuilder();
    for (String l : region) {
      b.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return b.toString();
  }
}
