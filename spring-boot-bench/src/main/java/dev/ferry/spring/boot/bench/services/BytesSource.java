package dev.ferry.spring.boot.bench.services;

import jakarta.activation.DataSource;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;

/** A blob in memory as an attachment's content. */
public record BytesSource(byte[] bytes) implements DataSource {
  @Override
  public InputStream getInputStream() {
    return new ByteArrayInputStream(bytes);
  }

  @Override
  public OutputStream getOutputStream() {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public String getContentType() {
    return "application/octet-stream";
  }

  @Override
  public String getName() {
    return "blob";
  }
}
