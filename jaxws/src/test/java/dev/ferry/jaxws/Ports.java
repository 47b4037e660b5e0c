package dev.ferry.jaxws;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports for endpoints published at a URL (JAX-WS takes no port 0 back). */
final class Ports {
  private Ports() {}

  static String url(String path) {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + s.getLocalPort() + path;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
