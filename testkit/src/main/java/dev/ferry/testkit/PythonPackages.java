package dev.ferry.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * Python packages from PyPI for interop tests (ldap3, zeep), each in a virtual environment of
 * its own under {@code ~/.cache/ferry/python-<package>}, made by the script
 * {@code install-python-package.sh} beside this class and kept while it holds the version asked
 * for.
 */
public final class PythonPackages {
  private PythonPackages() {}

  /** The python of the environment, or the installer's exit code and error output. */
  public record Install(Path python, int exit, String error) {
    public boolean installed() {
      return python != null;
    }
  }

  /**
   * Makes (or finds) the environment holding {@code pipPackage} at {@code version}, checked by
   * importing {@code module}; waits up to five minutes for pip.
   */
  public static Install install(String module, String pipPackage, String version)
      throws IOException, InterruptedException {
    Path venv = Path.of(System.getProperty("user.home"), ".cache", "ferry",
        "python-" + pipPackage);
    Path script = Files.createTempFile("install-python-package", ".sh");
    try {
      try (InputStream in = PythonPackages.class.getResourceAsStream(
          "install-python-package.sh")) {
        Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
      }
      Path err = Files.createTempFile("install-python-package", ".err");
      try {
        Process p = new ProcessBuilder("sh", script.toString(), venv.toString(), module,
            pipPackage, version).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
          p.destroyForcibly();
          return new Install(null, -1, "pip did not finish within five minutes");
        }
        if (p.exitValue() != 0) {
          return new Install(null, p.exitValue(), Files.readString(err));
        }
        String[] lines = out.strip().split("\n");
        return new Install(Path.of(lines[lines.length - 1]), 0, "");
      } finally {
        Files.deleteIfExists(err);
      }
    } finally {
      Files.deleteIfExists(script);
    }
  }
}
