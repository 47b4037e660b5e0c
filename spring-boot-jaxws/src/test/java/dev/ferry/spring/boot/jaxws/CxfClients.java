package dev.ferry.spring.boot.jaxws;

import java.util.HashMap;
import java.util.Map;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;

/** Typed ports of CXF's own client, the peer the starter's endpoints are called by. */
final class CxfClients {
  private CxfClients() {}

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
