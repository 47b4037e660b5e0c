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
 * The echo service as a JAX-WS implementation, for CXF's and Metro's servers alike: it reads
 * the whole blob, answers with a copy of it, and remembers the Content-Type the request arrived
 * with so that a test can check what went over the wire.
 */
@WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
    targetNamespace = EchoContract.SERVICE_NS,
    endpointInterface = "dev.ferry.interop.TestMtomPort")
public class EchoPortImpl implements TestMtomPort {
  @Resource
  private WebServiceContext context;

  private volatile String lastRequestContentType;
  private volatile String lastCaller;

  @Override
  public void testMtom(Holder<String> name, Holder<DataHandler> attachinfo) {
    lastRequestContentType = requestHeader("Content-Type");
    java.security.Principal caller = context.getUserPrincipal();
    lastCaller = caller == null ? null : caller.getName();
    // A fresh copy, not the received handler: the answer must not depend on whether the
    // peer's inbound attachment stream can be read a second time.
    byte[] bytes = Blobs.read(attachinfo.value);
    attachinfo.value = bytes == null ? null : new DataHandler(new BytesDataSource(bytes));
  }

  /** The Content-Type of the last request this endpoint served, as received. */
  String lastRequestContentType() {
    return lastRequestContentType;
  }

  /** Who the context said sent the last request (its user principal's name), or null. */
  String lastCaller() {
    return lastCaller;
  }

  private String requestHeader(String name) {
    @SuppressWarnings("unchecked")
    Map<String, List<String>> headers = (Map<String, List<String>>)
        context.getMessageContext().get(MessageContext.HTTP_REQUEST_HEADERS);
    return Blobs.header(headers, name);
  }
}
