package dev.ferry.bench.wss;

import dev.ferry.bytes.ByteString;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.CxfSecurity;
import dev.ferry.interop.TestMtomPort;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.apache.cxf.Bus;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.endpoint.Server;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.crypto.Merlin;

/**
 * CXF 4's echo (server on its Jetty transport, client proxy) with its WSS4J interceptors set to
 * the same policy as {@link SecureFerryEcho}: the interop tests' set-up.
 */
final class SecureCxfEcho implements AutoCloseable {
  private final Bus bus = CxfPeer.newBus();
  private final Server server;
  private final TestMtomPort port;
  private byte[] bytes;
  private ByteString last;

  SecureCxfEcho(String security, boolean mtom, String keyType) throws Exception {
    int free;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      free = s.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + free + "/echo");
    JaxWsServerFactoryBean factory = CxfSecurity.echoService(bus, uri, mtom);
    port = CxfPeer.client(bus, uri, mtom);
    Client client = ClientProxy.getClient(port);
    Merlin serviceCrypto = CxfSecurity.merlin(WssKeys.PKI, WssKeys.serviceKey(keyType),
        WssKeys.clientKey(keyType).certificate());
    Merlin clientCrypto = CxfSecurity.merlin(WssKeys.PKI, WssKeys.clientKey(keyType),
        WssKeys.serviceKey(keyType).certificate());
    String algorithm = keyType.equals("EC") ? ECDSA_SHA256 : null;
    switch (security) {
      case "none" -> { }
      case "usernameToken" -> {
        factory.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in(
            "UsernameToken Timestamp", serviceCrypto, "wonderland")));
        client.getOutInterceptors().add(new WSS4JOutInterceptor(signing(CxfSecurity.out(
            "UsernameToken Timestamp", clientCrypto, "wonderland"), algorithm)));
      }
      case "signed" -> {
        factory.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in(
            "Timestamp Signature", serviceCrypto, "wonderland")));
        factory.getOutInterceptors().add(new WSS4JOutInterceptor(signing(CxfSecurity.out(
            "Timestamp Signature", serviceCrypto, "wonderland"), algorithm)));
        client.getOutInterceptors().add(new WSS4JOutInterceptor(signing(CxfSecurity.out(
            "Timestamp Signature", clientCrypto, "wonderland"), algorithm)));
        client.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in(
            "Timestamp Signature", clientCrypto, "wonderland")));
      }
      default -> throw new IllegalArgumentException("no such security: " + security);
    }
    server = factory.create();
  }

  private static final String ECDSA_SHA256 =
      "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";

  /** {@code settings} signing with {@code algorithm} (null: as they are, RSA-SHA256). */
  private static java.util.Map<String, Object> signing(java.util.Map<String, Object> settings,
      String algorithm) {
    if (algorithm != null) {
      settings.put(org.apache.wss4j.common.ConfigurationConstants.SIG_ALGO, algorithm);
    }
    return settings;
  }

  long echo(ByteString blob) throws Exception {
    if (blob != last) {
      last = blob;
      bytes = blob.toByteArray();
    }
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(bytes)));
    port.testMtom(new Holder<>("bench"), data);
    try (InputStream in = data.value.getInputStream()) {
      return in.transferTo(OutputStream.nullOutputStream());
    }
  }

  @Override
  public void close() {
    server.destroy();
    bus.shutdown(true);
  }
}
