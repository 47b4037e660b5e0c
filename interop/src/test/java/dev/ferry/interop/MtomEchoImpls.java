package dev.ferry.interop;

import jakarta.activation.DataHandler;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.handler.MessageContext;
import java.util.List;
import java.util.Map;

/**
 * Implementations of CXF's MTOM sample contract, one per generated interface (CXF's
 * wsdl2java, Metro's wsimport), the same on every server: they echo the name and the bytes
 * (read whole, sent back as a fresh DataHandler) and note each request's Content-Type.
 */
final class MtomEchoImpls {
  static final String NS = "http://cxf.apache.org/mime";

  private MtomEchoImpls() {}

  /** Notes what the last request's HTTP headers said. */
  abstract static class Noting {
    @Resource
    private WebServiceContext context;
    volatile String lastRequestContentType;

    void note() {
      @SuppressWarnings("unchecked")
      Map<String, List<String>> headers = (Map<String, List<String>>)
          context.getMessageContext().get(MessageContext.HTTP_REQUEST_HEADERS);
      lastRequestContentType = Blobs.header(headers, "Content-Type");
    }

    /** testDataHandler's body: the blob read whole and answered as a copy. */
    void echo(Holder<DataHandler> attachinfo) {
      note();
      byte[] bytes = Blobs.read(attachinfo.value);
      attachinfo.value = bytes == null ? null : new DataHandler(new BytesDataSource(bytes));
    }
  }

  /** CXF's generated interface, implemented. */
  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.cxfmtom.TestMtomPortType")
  public static class Cxf extends Noting implements dev.ferry.interop.cxfmtom.TestMtomPortType {
    @Override
    public void testDataHandler(Holder<String> name, Holder<DataHandler> attachinfo) {
      echo(attachinfo);
    }

    @Override
    public void testByteArray(Holder<String> name, Holder<byte[]> attachinfo) {
      note();
    }
  }

  /** Metro's generated interface, implemented. */
  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.metromtom.TestMtomPortType")
  public static class Metro extends Noting
      implements dev.ferry.interop.metromtom.TestMtomPortType {
    @Override
    public void testDataHandler(Holder<String> name, Holder<DataHandler> attachinfo) {
      echo(attachinfo);
    }

    @Override
    public void testByteArray(Holder<String> name, Holder<byte[]> attachinfo) {
      note();
    }
  }

  /** CXF's generated interface served with the contract's own WSDL at ?wsdl. */
  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.cxfmtom.TestMtomPortType",
      wsdlLocation = "cxf-samples/mtom_xop.wsdl")
  public static class CxfWithWsdl extends Cxf {}
}
