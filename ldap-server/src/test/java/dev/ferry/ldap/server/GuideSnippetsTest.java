package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every Java block of docs/ldap.md is a block of a test that runs: a block follows a line
 * {@code <!-- snippet: File.java#name -->}, and must equal the lines between
 * {@code // guide:name} and {@code // end} of that test source, indentation removed.
 */
class GuideSnippetsTest {
  private static final Path GUIDE = Path.of("..", "docs", "ldap.md");
  private static final Path SOURCES = Path.of("src", "test", "java", "dev", "ferry", "ldap",
      "server");
  private static final Pattern SNIPPET = Pattern.compile(
      "<!-- snippet: (\\S+)#(\\S+) -->\\n```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everySnippetIsTestedCode() throws IOException {
    String guide = Files.readString(GUIDE);
    Matcher m = SNIPPET.matcher(guide);
    int found = 0;
    while (m.find()) {
      assertEquals(source(m.group(1), m.group(2)), m.group(3), m.group(1) + "#" + m.group(2));
      found++;
    }
    assertTrue(found >= 5, found + " snippets");
    assertEquals(found, count(guide, "```java"), "a Java block without a snippet marker");
  }

  private static String source(String file, String name) throws IOException {
    List<String> lines = Files.readAllLines(SOURCES.resolve(file));
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals("// guide:" + name)) {
        start = i + 1;
      }
    }
    assertTrue(start > 0, "no // guide:" + name + " in " + file);
    List<String> block = new ArrayList<>();
    for (int i = start; !lines.get(i).strip().equals("// end"); i++) {
      block.add(lines.get(i));
    }
    int indent = block.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    StringBuilder s = new StringBuilder();
    for (String l : block) {
      s.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return s.toString();
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }
}
