package dev.ferry.broker;

import dev.ferry.broker.internal.TeeOutputStream;
import dev.ferry.bytes.Spool;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.soap.Payload;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker's audit copies: each forwarded request, byte for byte as sent to the backend, either
 * into a file of a directory ({@code <time>-<n>.mime}: a Content-Type line, a blank line, the
 * body; owner-only; readable by {@code ferry mime inspect}) or, spooled, posted afterwards to an
 * audit endpoint. A copy is written as the request streams, never by a second read. A copy of a
 * request that failed is deleted. A failing copy is logged and dropped; it never fails the call.
 * At most 16 posts to audit endpoints run at once; beyond, copies are dropped and logged.
 */
final class Audit implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.ferry.broker.audit");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss.SSS");
  /** The copy of a route without an audit target: does nothing. */
  static final Copy NONE = new Copy();

  private final SoapClient client;
  private final AtomicLong sequence = new AtomicLong();
  private final ExecutorService posts = Executors.newVirtualThreadPerTaskExecutor();
  private final Semaphore postSlots = new Semaphore(16);

  Audit(SoapClient client) {
    this.client = client;
  }

  /** Opens the copy of one request on {@code route} (a no-op without an audit target). */
  Copy open(Route route) {
    if (route.audit() == null) {
      return NONE;
    }
    return route.auditsToUrl() ? new UrlCopy(URI.create(route.audit()))
        : new FileCopy(Path.of(route.audit()));
  }

  @Override
  public void close() {
    posts.close(); // waits for posts in flight
  }

  /** One request's copy: wraps the payload to tee it, then completes or is discarded. */
  static class Copy {
    Payload wrap(Payload payload) {
      return payload;
    }

    void complete() {}

    void discard() {}
  }

  /** Tees a payload into {@link #target}, opened when the payload is written. */
  private abstract static class TeeCopy extends Copy {
    TeeOutputStream tee;

    abstract OutputStream target(String contentType) throws IOException;

    @Override
    Payload wrap(Payload payload) {
      return new Payload() {
        @Override
        public String contentType() {
          return payload.contentType();
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
          OutputStream copy;
          try {
            copy = target(payload.contentType());
          } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "audit copy not written: " + e.getMessage());
            copy = OutputStream.nullOutputStream();
          }
          tee = new TeeOutputStream(out, copy);
          payload.writeTo(tee);
        }
      };
    }

    boolean whole() {
      if (tee != null && tee.copyFailure() != null) {
        LOG.log(System.Logger.Level.WARNING, "audit copy dropped: "
            + tee.copyFailure().getMessage());
        return false;
      }
      return tee != null;
    }
  }

  private final class FileCopy extends TeeCopy {
    private final Path directory;
    private Path file;
    private OutputStream stream;

    FileCopy(Path directory) {
      this.directory = directory;
    }

    @Override
    OutputStream target(String contentType) throws IOException {
      Files.createDirectories(directory);
      file = directory.resolve(LocalDateTime.now().format(STAMP) + "-"
          + sequence.incrementAndGet() + ".mime");
      stream = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the directory's own permissions apply
      }
      stream.write(("Content-Type: " + contentType + "\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      return stream;
    }

    @Override
    void complete() {
      closeStream();
      if (!whole()) {
        delete();
      }
    }

    @Override
    void discard() {
      closeStream();
      delete();
    }

    private void closeStream() {
      if (stream != null) {
        try {
          stream.close();
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "audit file not closed: " + e.getMessage());
        }
      }
    }

    private void delete() {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "cannot delete " + file + ": " + e.getMessage());
        }
      }
    }
  }

  private final class UrlCopy extends TeeCopy {
    private final URI uri;
    private Spool spool;
    private String contentType;

    UrlCopy(URI uri) {
      this.uri = uri;
    }

    @Override
    OutputStream target(String type) {
      contentType = type;
      spool = Spool.create();
      return spool;
    }

    @Override
    void complete() {
      if (!whole()) {
        discard();
        return;
      }
      if (!postSlots.tryAcquire()) {
        LOG.log(System.Logger.Level.WARNING, "audit copy to " + uri
            + " dropped: 16 posts are already in flight");
        discard();
        return;
      }
      Spool s = spool;
      posts.execute(() -> post(s));
    }

    private void post(Spool s) {
      Payload copy = new Payload() {
        @Override
        public String contentType() {
          return contentType;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
          s.writeTo(out);
        }
      };
      try (SoapResponse r = client.call(uri, copy, null)) {
        if (r.status() >= 300) {
          LOG.log(System.Logger.Level.WARNING, "audit endpoint " + uri + " answered "
              + r.status());
        }
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "audit copy to " + uri + " failed: "
            + e.getMessage());
      } finally {
        postSlots.release();
        close(s);
      }
    }

    @Override
    void discard() {
      close(spool);
    }

    private void close(Spool s) {
      if (s != null) {
        try {
          s.close();
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "audit spool not deleted: " + e.getMessage());
        }
      }
    }
  }
}
