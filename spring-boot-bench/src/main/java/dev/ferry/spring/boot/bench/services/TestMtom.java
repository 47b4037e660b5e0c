package dev.ferry.spring.boot.bench.services;

import jakarta.activation.DataHandler;
import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.InputStream;

/** The tenth service, and the one the round trip calls: answers with a copy of the blob. */
@WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
    targetNamespace = TestMtomPort.NS,
    endpointInterface = "dev.ferry.spring.boot.bench.services.TestMtomPort")
public class TestMtom implements TestMtomPort {
  @Override
  public void testMtom(Holder<String> name, Holder<DataHandler> attachinfo) {
    try (InputStream in = attachinfo.value.getInputStream()) {
      attachinfo.value = new DataHandler(new BytesSource(in.readAllBytes()));
    } catch (IOException e) {
      throw new WebServiceException("the attachment could not be read", e);
    }
  }
}
