package dev.ferry.interop;

import jakarta.activation.DataSource;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Bytes in memory as an application/octet-stream DataSource. Neither CXF's nor Metro's own
 * byte data source is used, so that each peer sees only its own classes.
 */
public record BytesDataSource(byte[] bytes) implements DataSource {
  static final String OCTET_STREAM = "application/octet-stream";

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
    return OCTET_STREAM;
  }

  @Override
  public String getName() {
    return "attachinfo";
  }
}
