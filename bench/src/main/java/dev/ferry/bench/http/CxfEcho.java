package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.cxf.Bus;

/**
 * CXF 4's JAX-WS echo server (Jetty transport) and client proxy, with CXF's defaults plus MTOM
 * on both sides when {@code mtom}; the SEI and set-up are the interop tests' own.
 */
final class CxfEcho implements EchoStack {
  private final CxfPeer.EchoServer server;
  private final Bus clientBus;
  private final TestMtomPort port;
  private ByteString lastBlob;
  private byte[] lastBytes; // the blob as CXF takes it, made once, not per call


  CxfEcho(boolean mtom) {
    server = new CxfPeer.EchoServer();
    clientBus = CxfPeer.newBus();
    port = CxfPeer.client(clientBus, server.uri(mtom), mtom);
  }

  @Override
  public long echo(ByteString blob) throws Exception {
    Holder<String> name = new Holder<>("bench");
    if (blob != lastBlob) {
      lastBlob = blob;
      lastBytes = blob.toByteArray();
    }
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(lastBytes)));
    port.testMtom(name, data);
    try (InputStream in = data.value.getInputStream()) {
      return in.transferTo(OutputStream.nullOutputStream());
    }
  }

  @Override
  public void close() {
    clientBus.shutdown(true);
    server.close();
  }
}
