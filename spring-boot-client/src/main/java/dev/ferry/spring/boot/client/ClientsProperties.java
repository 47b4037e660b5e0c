package dev.ferry.spring.boot.client;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code ferry.clients.*} properties: one {@link ClientProperties} per bean name. */
@ConfigurationProperties("ferry")
public class ClientsProperties {
  /** The clients, by the name of the bean each one becomes. */
  private Map<String, ClientProperties> clients = new LinkedHashMap<>();

  public Map<String, ClientProperties> getClients() {
    return clients;
  }

  public void setClients(Map<String, ClientProperties> clients) {
    this.clients = clients;
  }
}
