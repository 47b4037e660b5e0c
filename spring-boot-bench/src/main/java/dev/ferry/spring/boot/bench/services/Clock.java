package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "ClockService", portName = "ClockPort",
    targetNamespace = "urn:ferry:bench:clock")
public class Clock {
  public long now() {
    return System.currentTimeMillis();
  }

  public String zone(@WebParam(name = "offsetMinutes") int offsetMinutes) {
    return java.time.ZoneOffset.ofTotalSeconds(offsetMinutes * 60).getId();
  }
}
