package dev.ferry.jaxws.internal;

import jakarta.activation.DataHandler;
import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.ResponseWrapper;

/** The testMtom contract as wsimport writes it: document/literal wrapped, two INOUT parts. */
@WebService(name = "TestMtom", targetNamespace = "http://cxf.apache.org/mime")
public interface MtomEchoPort {
  String TYPES = "http://cxf.apache.org/mime/types";

  @WebMethod(action = "urn:testMtom")
  @RequestWrapper(localName = "testMtom", targetNamespace = TYPES)
  @ResponseWrapper(localName = "testMtomResponse", targetNamespace = TYPES)
  void testMtom(
      @WebParam(name = "name", targetNamespace = TYPES, mode = WebParam.Mode.INOUT)
      Holder<String> name,
      @WebParam(name = "attachinfo", targetNamespace = TYPES, mode = WebParam.Mode.INOUT)
      Holder<DataHandler> attachinfo);
}
