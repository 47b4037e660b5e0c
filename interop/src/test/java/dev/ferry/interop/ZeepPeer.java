package dev.ferry.interop;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Python's zeep as a client: {@code zeep/call.py} run in a private venv that holds the versions
 * {@code zeep/requirements.txt} pins. The venv is made on first use, under
 * {@code ~/.cache/ferry/zeep-VERSION} (shared by every build of the machine, made under a file
 * lock); where there is no python3, or PyPI cannot be reached to fill it, the calling test is
 * skipped with the reason, never failed.
 */
final class ZeepPeer {
  static final String VERSION = "4.3.3";
  private static final long INSTALL_SECONDS = 300;
  private static final long CALL_SECONDS = 60;
  private static Path python;

  private ZeepPeer() {}

  /**
   * Calls {@code operation} of the service whose WSDL zeep reads from {@code wsdl}, with
   * {@code argsJson} (its arguments by name), and returns what came back: result leaves as
   * {@code result.PATH}, or a fault as {@code fault.code}, {@code fault.message} and
   * {@code fault.detail.PATH}.
   */
  static Map<String, String> call(URI wsdl, String operation, String argsJson,
      String... options) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(python().toString(), script("call.py"),
        wsdl.toString(), operation, argsJson));
    command.addAll(List.of(options));
    Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
    p.getOutputStream().close();
    var out = readAll(p.getInputStream());
    var err = readAll(p.getErrorStream());
    if (!p.waitFor(CALL_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("zeep did not finish in " + CALL_SECONDS + " s");
    }
    if (p.exitValue() != 0) {
      throw new IOException("zeep failed (exit " + p.exitValue() + "):\n"
          + new String(err.join(), StandardCharsets.UTF_8));
    }
    return parse(new String(out.join(), StandardCharsets.UTF_8));
  }

  /** Reads {@code in} to its end on a thread of its own, so that no pipe fills up. */
  private static CompletableFuture<byte[]> readAll(InputStream in) {
    CompletableFuture<byte[]> bytes = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try (in) {
        bytes.complete(in.readAllBytes());
      } catch (IOException e) {
        bytes.complete(new byte[0]);
      }
    });
    return bytes;
  }

  private static Map<String, String> parse(String lines) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : lines.split("\n")) {
      int tab = line.indexOf('\t');
      if (tab > 0) {
        values.put(line.substring(0, tab), unescape(line.substring(tab + 1)));
      }
    }
    return values;
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static String script(String name) {
    try {
      return Path.of(ZeepPeer.class.getClassLoader().getResource("zeep/" + name).toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The venv's python, made if absent; skips the test when it cannot be made. */
  private static synchronized Path python() throws IOException, InterruptedException {
    if (python != null) {
      return python;
    }
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "ferry");
    Files.createDirectories(cache);
    Path venv = cache.resolve("zeep-" + VERSION);
    Path ready = venv.resolve("ferry-ready");
    try (FileChannel lock = FileChannel.open(cache.resolve("zeep-" + VERSION + ".lock"),
            StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = lock.lock()) {
      if (!Files.exists(ready)) {
        install(venv);
        Files.writeString(ready, VERSION);
      }
    }
    python = venv.resolve("bin").resolve("python");
    return python;
  }

  private static void install(Path venv) throws IOException, InterruptedException {
    deleteTree(venv);
    String system = onPath("python3");
    Assumptions.assumeTrue(system != null, "python3 is not installed: zeep is not tried");
    run(List.of(system, "-m", "venv", venv.toString()), "python3 -m venv (is python3-venv"
        + " installed?)");
    run(List.of(venv.resolve("bin").resolve("python").toString(), "-m", "pip", "install",
        "--disable-pip-version-check", "--quiet", "--timeout", "30", "-r",
        script("requirements.txt")), "pip install zeep==" + VERSION + " from PyPI");
  }

  private static void run(List<String> command, String what) throws IOException,
      InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    var output = readAll(p.getInputStream());
    boolean done = p.waitFor(INSTALL_SECONDS, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly();
    }
    String text = new String(output.join(), StandardCharsets.UTF_8);
    Assumptions.assumeTrue(done && p.exitValue() == 0, () -> what + " failed, so zeep is not"
        + " tried (PyPI unreachable?):\n" + tail(text));
  }

  private static String tail(String text) {
    return text.length() <= 2000 ? text : text.substring(text.length() - 2000);
  }

  private static String onPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
