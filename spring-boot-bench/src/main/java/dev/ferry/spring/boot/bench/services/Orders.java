package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "OrdersService", portName = "OrdersPort",
    targetNamespace = "urn:ferry:bench:orders")
public class Orders {
  public String place(@WebParam(name = "customer") String customer,
      @WebParam(name = "sku") String sku, @WebParam(name = "count") int count) {
    return customer + ":" + sku + "x" + count;
  }

  public boolean cancel(@WebParam(name = "order") String order) {
    return !order.isEmpty();
  }
}
