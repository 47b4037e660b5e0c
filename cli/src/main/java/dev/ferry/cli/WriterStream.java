package dev.ferry.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Writes the LDIF bytes to the command's writer (UTF-8 text either way). */
final class WriterStream extends OutputStream {
  private final PrintWriter out;
  private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

  WriterStream(PrintWriter out) {
    this.out = out;
  }

  @Override
  public void write(int b) {
    line.write(b);
    if (b == '\n') {
      flush();
    }
  }

  @Override
  public void flush() {
    out.print(line.toString(StandardCharsets.UTF_8));
    out.flush();
    line.reset();
  }

  @Override
  public void close() {
    flush();
  }
}
