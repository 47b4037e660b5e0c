package dev.ferry.bench.http;

import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import org.apache.cxf.Bus;

/**
 * CXF 4's JAX-WS echo server (Jetty transport) and client proxy, with CXF's defaults plus MTOM
 * on both sides when {@code mtom}; the SEI and set-up are the interop tests' own.
 */
final class CxfEcho extends PortEcho {
  private final CxfPeer.EchoServer server;
  private final Bus clientBus;
  private final TestMtomPort port;

  CxfEcho(boolean mtom) {
    server = new CxfPeer.EchoServer();
    clientBus = CxfPeer.newBus();
    port = CxfPeer.client(clientBus, server.uri(mtom), mtom);
  }

  @Override
  TestMtomPort port() {
    return port;
  }

  @Override
  public void close() {
    clientBus.shutdown(true);
    server.close();
  }
}
