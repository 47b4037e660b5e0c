package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "InventoryService", portName = "InventoryPort",
    targetNamespace = "urn:ferry:bench:inventory")
public class Inventory {
  public int stock(@WebParam(name = "sku") String sku) {
    return sku.length();
  }

  public boolean reserve(@WebParam(name = "sku") String sku, @WebParam(name = "count") int count) {
    return count <= sku.length();
  }
}
