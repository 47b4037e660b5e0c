package dev.ferry.jaxws.internal;

import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.jws.soap.SOAPBinding;
import jakarta.xml.bind.annotation.XmlMimeType;
import jakarta.xml.ws.Holder;
import java.util.List;

/** Operations of every style and shape the binding reads and writes. */
@WebService(targetNamespace = "urn:shapes")
public interface ShapesPort {
  /** Wrapped, defaults only: arg0, arg1 and return, unqualified. */
  int add(int a, int b);

  /** A list, a header part and an OUT-only part. */
  @WebResult(name = "count")
  int count(@WebParam(name = "words") List<String> words,
      @WebParam(name = "tenant", header = true) String tenant,
      @WebParam(name = "longest", mode = WebParam.Mode.OUT) Holder<String> longest);

  /** Bytes with a declared MIME type. */
  @WebResult(name = "blob")
  @XmlMimeType("application/octet-stream")
  byte[] reverse(@WebParam(name = "blob") byte[] blob);

  /** Document/literal bare: the parameter is the Body's element. */
  @SOAPBinding(parameterStyle = SOAPBinding.ParameterStyle.BARE)
  @WebResult(name = "greeting", targetNamespace = "urn:shapes")
  String greet(@WebParam(name = "person", targetNamespace = "urn:shapes") String person);

  /** RPC/literal: parts unqualified, typed by schema types. */
  @SOAPBinding(style = SOAPBinding.Style.RPC)
  @WebResult(partName = "sum")
  long total(@WebParam(partName = "values") long[] values);
}
