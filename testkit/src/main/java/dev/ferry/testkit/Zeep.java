package dev.ferry.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Python's zeep, the SOAP client, as a peer: installed from PyPI into a private virtual
 * environment ({@link PythonPackages}), or the test skipped with the reason. A client script
 * prints {@code key=value} lines, which {@link #run} returns.
 */
public final class Zeep {
  /** The zeep release the interop tests run. */
  public static final String VERSION = "4.3.3";

  private Zeep() {}

  /** The python of zeep's environment; skips the calling test if zeep cannot be installed. */
  public static Path python() throws IOException, InterruptedException {
    PythonPackages.Install install = PythonPackages.install("zeep", "zeep", VERSION);
    Assumptions.assumeTrue(install.installed(), "zeep could not be installed from PyPI"
        + " (is PyPI reachable?), so the zeep calls are skipped: exit " + install.exit()
        + ", " + install.error());
    return install.python();
  }

  /**
   * Runs the script resource {@code resource} of {@code owner} (copied into {@code dir}) with
   * {@code args}; returns its {@code key=value} lines. Fails, with its output, unless it exits 0
   * within two minutes.
   */
  public static Map<String, String> run(Path python, Class<?> owner, String resource, Path dir,
      String... args) throws IOException, InterruptedException {
    Path script = dir.resolve(resource);
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource + " beside " + owner);
      }
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    List<String> command = new ArrayList<>(List.of(python.toString(), script.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("zeep did not finish within two minutes: " + out);
    }
    if (p.exitValue() != 0) {
      throw new AssertionError("zeep exited with " + p.exitValue() + ": " + out);
    }
    Map<String, String> values = new HashMap<>();
    for (String line : out.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1).strip());
      }
    }
    return values;
  }
}
