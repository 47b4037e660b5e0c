package dev.ferry.spring.boot.bench.services;

import jakarta.activation.DataHandler;
import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;

/** The testMtom echo's interface: a name and a blob in, the same name and the blob out. */
@WebService(name = "TestMtom", targetNamespace = TestMtomPort.NS)
public interface TestMtomPort {
  String NS = "http://cxf.apache.org/mime";

  @WebMethod(operationName = "testMtom", action = "urn:testMtom")
  void testMtom(
      @WebParam(name = "name", mode = WebParam.Mode.INOUT) Holder<String> name,
      @WebParam(name = "attachinfo", mode = WebParam.Mode.INOUT) Holder<DataHandler> attachinfo);
}
