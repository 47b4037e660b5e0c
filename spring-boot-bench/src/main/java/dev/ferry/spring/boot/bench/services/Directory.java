package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "DirectoryService", portName = "DirectoryPort",
    targetNamespace = "urn:ferry:bench:directory")
public class Directory {
  public String[] members(@WebParam(name = "group") String group) {
    return new String[] {group + "-admin", group + "-user"};
  }

  public boolean isMember(@WebParam(name = "group") String group,
      @WebParam(name = "user") String user) {
    return user.startsWith(group);
  }
}
