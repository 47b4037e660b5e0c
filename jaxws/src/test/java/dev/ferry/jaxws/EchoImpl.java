package dev.ferry.jaxws;

import dev.ferry.jaxws.internal.MtomEchoPort;
import jakarta.activation.DataHandler;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.soap.MTOM;
import java.util.List;
import java.util.Map;

/**
 * The testMtom echo as a JAX-WS implementation: it sends back the DataHandler it was given (so
 * the reply streams from the request's spool) and notes what the context showed it.
 */
@MTOM
@WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
    targetNamespace = "http://cxf.apache.org/mime",
    endpointInterface = "dev.ferry.jaxws.internal.MtomEchoPort")
public class EchoImpl implements MtomEchoPort {
  @Resource
  private WebServiceContext context;

  volatile String tenant;
  volatile String authorization;
  volatile String remoteAddress;
  volatile Object operation;
  volatile boolean handedAnAttachment;

  @Override
  public void testMtom(Holder<String> name, Holder<DataHandler> attachinfo) {
    MessageContext mc = context.getMessageContext();
    @SuppressWarnings("unchecked")
    Map<String, List<String>> headers =
        (Map<String, List<String>>) mc.get(MessageContext.HTTP_REQUEST_HEADERS);
    List<String> t = headers.get("x-tenant");
    tenant = t == null ? null : t.get(0);
    List<String> a = headers.get("authorization");
    authorization = a == null ? null : a.get(0);
    remoteAddress = ((jakarta.servlet.http.HttpServletRequest) mc.get(
        MessageContext.SERVLET_REQUEST)).getRemoteAddr();
    operation = mc.get(MessageContext.WSDL_OPERATION);
    handedAnAttachment = attachinfo.value.getDataSource()
        instanceof dev.ferry.jaxws.internal.AttachmentDataSource;
  }
}
