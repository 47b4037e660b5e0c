package dev.ferry.spring.boot.jaxws;

import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.TrustManagerFactory;
import org.apache.cxf.configuration.jsse.TLSClientParameters;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.transport.http.HTTPConduit;

/** Typed ports of CXF's own client, the peer the starter's endpoints are called by. */
final class CxfClients {
  private CxfClients() {}

  /** A port whose https calls trust {@code ca}. */
  static Greeter greeter(String address, String user, String password, X509Certificate ca)
      throws Exception {
    Greeter port = greeter(address, user, password, false);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(
        TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    TLSClientParameters tls = new TLSClientParameters();
    tls.setTrustManagers(tmf.getTrustManagers());
    ((HTTPConduit) ClientProxy.getClient(port).getConduit()).setTlsClientParameters(tls);
    return port;
  }

  static Greeter greeter(String address, String user, String password, boolean mtom) {
    JaxWsProxyFactoryBean f = new JaxWsProxyFactoryBean();
    f.setServiceClass(Greeter.class);
    f.setAddress(address);
    if (user != null) {
      f.setUsername(user);
      f.setPassword(password);
    }
    if (mtom) {
      f.setProperties(new HashMap<>(Map.of("mtom-enabled", Boolean.TRUE)));
    }
    return f.create(Greeter.class);
  }
}
