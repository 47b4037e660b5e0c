package dev.ferry.ldap.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs an external program (OpenLDAP's tools, Python) and keeps what it said and returned. */
record Tool(int exit, String out, String err) {
  private static final int SECONDS = 60;

  static Tool run(Map<String, String> env, List<String> command) throws Exception {
    return run(env, command, null);
  }

  /** Runs {@code command} with {@code env} added, {@code stdin} (or nothing) as input. */
  static Tool run(Map<String, String> env, List<String> command, Path stdin) throws Exception {
    Path out = Files.createTempFile("ferry-tool", ".out");
    Path err = Files.createTempFile("ferry-tool", ".err");
    try {
      ProcessBuilder b = new ProcessBuilder(command).redirectOutput(out.toFile())
          .redirectError(err.toFile());
      b.environment().putAll(env);
      if (stdin != null) {
        b.redirectInput(stdin.toFile());
      }
      Process p = b.start();
      if (stdin == null) {
        p.getOutputStream().close();
      }
      if (!p.waitFor(SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(command + " did not finish within " + SECONDS + " s");
      }
      return new Tool(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Returns this, or fails naming the command's output if it did not exit with 0. */
  Tool ok() {
    if (exit != 0) {
      throw new AssertionError("exit " + exit + ": " + err + out);
    }
    return this;
  }
}
