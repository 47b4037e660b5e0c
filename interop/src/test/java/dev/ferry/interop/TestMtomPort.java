package dev.ferry.interop;

import jakarta.activation.DataHandler;
import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebService;
import jakarta.jws.soap.SOAPBinding;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.ResponseWrapper;

/**
 * The echo service's JAX-WS service endpoint interface, written by hand from testMtom.wsdl
 * (what wsimport would generate): document/literal wrapped, both parts INOUT, so the response
 * carries the same two elements as the request.
 */
@WebService(name = "TestMtom", targetNamespace = EchoContract.SERVICE_NS)
@SOAPBinding(style = SOAPBinding.Style.DOCUMENT, use = SOAPBinding.Use.LITERAL,
    parameterStyle = SOAPBinding.ParameterStyle.WRAPPED)
public interface TestMtomPort {

  /** Sends a name and a blob; the service puts back the same name and the same bytes. */
  @WebMethod(operationName = "testMtom", action = EchoContract.SOAP_ACTION)
  @RequestWrapper(localName = "testMtom", targetNamespace = EchoContract.TYPES_NS,
      className = "dev.ferry.interop.TestMtomRequest")
  @ResponseWrapper(localName = "testMtomResponse", targetNamespace = EchoContract.TYPES_NS,
      className = "dev.ferry.interop.TestMtomResponse")
  void testMtom(
      @WebParam(name = "name", targetNamespace = EchoContract.TYPES_NS,
          mode = WebParam.Mode.INOUT) Holder<String> name,
      @WebParam(name = "attachinfo", targetNamespace = EchoContract.TYPES_NS,
          mode = WebParam.Mode.INOUT) Holder<DataHandler> attachinfo);
}
