package dev.ferry.security.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A value loaded from files and loaded again when they change: looked at no more often than
 * once per interval, by the thread that asks for the value (a TLS handshake), so nothing runs
 * in the background. A change is a different modification time, size or file key (a Kubernetes
 * secret is replaced by a new symbolic link). A load that fails keeps the previous value and is
 * tried again at the next look: a certificate half written never takes a listener down.
 */
public final class Reloading<T> {
  /** Loads the value from the files. */
  @FunctionalInterface
  public interface Loader<T> {
    T load() throws IOException;
  }

  private static final System.Logger LOG = System.getLogger("dev.ferry.security");

  private final List<Path> files;
  private final Loader<T> loader;
  private final long intervalNanos;
  private volatile T value;
  private volatile List<Object> stamps;
  private volatile long nextLook;
  private volatile long generation;

  /** Loads now: a failure here is the caller's ({@code files} may be empty: never reloaded). */
  public Reloading(List<Path> files, Duration interval, Loader<T> loader) throws IOException {
    this.files = List.copyOf(files);
    this.loader = Objects.requireNonNull(loader);
    this.intervalNanos = interval.toNanos();
    this.stamps = stamps();
    this.value = loader.load();
    this.nextLook = System.nanoTime() + intervalNanos;
  }

  /** The value, loaded again first if the interval passed and the files changed. */
  public T get() {
    if (!files.isEmpty() && System.nanoTime() - nextLook >= 0) {
      look();
    }
    return value;
  }

  /** How many times the value was loaded again. */
  public long generation() {
    return generation;
  }

  private synchronized void look() {
    if (System.nanoTime() - nextLook < 0) {
      return; // another thread looked meanwhile
    }
    nextLook = System.nanoTime() + intervalNanos;
    List<Object> now;
    try {
      now = stamps();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot look at " + files + ": " + e.getMessage()
          + "; keeping what was loaded before");
      return;
    }
    if (now.equals(stamps)) {
      return;
    }
    try {
      value = loader.load();
      stamps = now;
      generation++;
      LOG.log(System.Logger.Level.INFO, "loaded " + files + " again: they changed");
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot load " + files + " again: " + e.getMessage()
          + "; keeping what was loaded before, trying again later");
    }
  }

  private List<Object> stamps() throws IOException {
    List<Object> out = new ArrayList<>(files.size() * 3);
    for (Path f : files) {
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
      out.add(a.lastModifiedTime());
      out.add(a.size());
      out.add(String.valueOf(a.fileKey()));
      out.add(f.toRealPath().toString()); // a replaced symbolic link points elsewhere
    }
    return out;
  }
}
