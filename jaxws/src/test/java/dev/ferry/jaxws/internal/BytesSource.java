package dev.ferry.jaxws.internal;

import jakarta.activation.DataSource;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;

/** Bytes in memory as an application/octet-stream DataSource, for the tests of both packages. */
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
    return "bytes";
  }
}
