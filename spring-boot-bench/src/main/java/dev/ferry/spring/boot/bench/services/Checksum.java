package dev.ferry.spring.boot.bench.services;

import jakarta.jws.WebParam;
import jakarta.jws.WebService;

/** One of the bench application's ten services. */
@WebService(serviceName = "ChecksumService", portName = "ChecksumPort",
    targetNamespace = "urn:ferry:bench:checksum")
public class Checksum {
  public long crc32(@WebParam(name = "data") byte[] data) {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(data);
    return crc.getValue();
  }

  public int size(@WebParam(name = "data") byte[] data) {
    return data.length;
  }
}
