package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "AccountsService", portName = "AccountsPort",
    targetNamespace = "urn:ferry:bench:accounts")
public class Accounts {
  public String open(@WebParam(name = "owner") String owner) {
    return "acct-" + owner;
  }

  public long balance(@WebParam(name = "account") String account) {
    return account.hashCode() & 0xffff;
  }
}
