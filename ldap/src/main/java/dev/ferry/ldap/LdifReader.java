package dev.ferry.ldap;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads LDIF (RFC 2849) record by record from a stream: content records (entries) and change
 * records (add, delete, modify, modrdn/moddn, with controls), folded lines, comments, base64
 * values, and, only when a folder is allowed, {@code file:} URL values from that folder.
 *
 * <p>A pull facade over a push core: bytes are read in 16 KiB chunks and cut into logical lines
 * as they arrive, so a file of any size is read with one record in memory, bounded by
 * {@link LdifLimits}. Errors are {@link LdifException}s with the line number and byte offset.
 * A record without {@code changetype} is an {@link LdifRecord.Entry}; a file may mix both kinds.
 *
 * <pre>{@code
 * try (LdifReader r = LdifReader.of(Files.newInputStream(Path.of("data.ldif")))) {
 *   for (LdifRecord record; (record = r.next()) != null; ) {
 *     connection.send(record.toRequest(), record.controls()).join();
 *   }
 * }
 * }</pre>
 *
 * <p>Not thread-safe. Closing the reader closes the stream.
 */
public final class LdifReader implements Closeable {
  private static final int CHUNK_BYTES = 16 * 1024;

  private final InputStream in;
  private final LdifLines lines;
  private final LdifRecordParser records;
  private final byte[] buf = new byte[CHUNK_BYTES];
  private int pos;
  private int limit;
  private boolean eof;
  private boolean done;

  private LdifReader(InputStream in, LdifLimits limits, Path urlRoot) {
    this.in = Objects.requireNonNull(in, "in");
    this.lines = new LdifLines(limits);
    this.records = new LdifRecordParser(limits, urlRoot);
  }

  /** Returns a reader with the default limits that refuses URL values. */
  public static LdifReader of(InputStream in) {
    return builder().build(in);
  }

  /** Returns a builder for readers with other limits or with file URLs allowed. */
  public static Builder builder() {
    return new Builder();
  }

  /** Reads every record of a file with the default limits. */
  public static List<LdifRecord> readAll(Path file) throws IOException {
    try (LdifReader r = of(Files.newInputStream(file))) {
      return r.readAll();
    }
  }

  /** Reads every record left. */
  public List<LdifRecord> readAll() throws IOException {
    List<LdifRecord> all = new ArrayList<>();
    for (LdifRecord r; (r = next()) != null; ) {
      all.add(r);
    }
    return all;
  }

  /**
   * Returns the next record, or null at the end of the input.
   *
   * @throws LdifException if the input is not LDIF, exceeds a limit, or names a URL that may
   *     not be read
   */
  public LdifRecord next() throws IOException {
    while (!done) {
      LdifLines.Step step = step();
      switch (step) {
        case LINE -> records.add(lines.line(), lines.lineLength(), lines.lineNumber(),
            lines.lineOffset());
        case SEPARATOR, END -> {
          done = step == LdifLines.Step.END;
          LdifRecord r = records.finish();
          if (r != null) {
            return r;
          }
        }
        case NEED_INPUT -> fill();
      }
    }
    return null;
  }

  private LdifLines.Step step() throws IOException {
    if (pos < limit) {
      LdifLines.Step s = lines.next(buf, pos, limit);
      pos += lines.consumed();
      return s;
    }
    return eof ? lines.finish() : LdifLines.Step.NEED_INPUT;
  }

  private void fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n < 0) {
      eof = true;
    } else {
      pos = 0;
      limit = n;
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** Builds {@link LdifReader}s. */
  public static final class Builder {
    private LdifLimits limits = LdifLimits.DEFAULTS;
    private Path urlRoot;

    private Builder() {}

    public Builder limits(LdifLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * Allows {@code attr:< file:///path} values for files under {@code folder} (after links are
     * resolved); any other URL is an error. Off by default: an LDIF file from elsewhere must not
     * be able to read this machine's files.
     */
    public Builder fileUrlRoot(Path folder) {
      this.urlRoot = Objects.requireNonNull(folder, "folder").toAbsolutePath();
      return this;
    }

    /** Returns a reader over {@code in}. */
    public LdifReader build(InputStream in) {
      return new LdifReader(in, limits, urlRoot);
    }
  }
}
