package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.TestMtomPort;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * An echo through a JAX-WS port of the interop tests' SEI, whichever runtime made it: the blob
 * goes as a DataHandler over a byte array made once per blob, not per call, and the echo is read
 * to its end (and closed, where the runtime's DataHandler is Closeable).
 */
abstract class PortEcho implements EchoStack {
  private ByteString lastBlob;
  private byte[] lastBytes;

  /** The port calls go through. */
  abstract TestMtomPort port();

  @Override
  public long echo(ByteString blob) throws Exception {
    if (blob != lastBlob) {
      lastBlob = blob;
      lastBytes = blob.toByteArray();
    }
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(lastBytes)));
    port().testMtom(new Holder<>("bench"), data);
    return drain(data.value);
  }

  /** Reads a reply's DataHandler to its end and releases it. */
  static long drain(DataHandler dh) throws Exception {
    try (InputStream in = dh.getInputStream()) {
      return in.transferTo(OutputStream.nullOutputStream());
    } finally {
      if (dh instanceof Closeable c) {
        c.close();
      }
    }
  }
}
