package dev.ferry.war;

import dev.ferry.bytes.Spool;
import dev.ferry.war.mtom.TestMtomPortType;
import jakarta.activation.DataHandler;
import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;

/**
 * CXF's MTOM sample contract, implemented on the interface CXF's wsdl2java generates: the
 * attachment goes back as it came (streamed from where the server put it), and the name tells
 * whether an attachment of this request sat in a temp file while the call ran.
 */
@WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
    targetNamespace = "http://cxf.apache.org/mime",
    endpointInterface = "dev.ferry.war.mtom.TestMtomPortType")
public class MtomEcho implements TestMtomPortType {
  @Override
  public void testDataHandler(Holder<String> name, Holder<DataHandler> attachinfo) {
    name.value = name.value + " spooled=" + (Spool.filesInUse() > 0);
  }

  @Override
  public void testByteArray(Holder<String> name, Holder<byte[]> attachinfo) {
    name.value = name.value + " bytes=" + (attachinfo.value == null ? 0 : attachinfo.value.length);
  }
}
