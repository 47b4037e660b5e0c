package dev.ferry.jaxws;

import jakarta.jws.WebMethod;
import jakarta.jws.WebService;
import jakarta.xml.ws.AsyncHandler;
import jakarta.xml.ws.Response;
import java.util.concurrent.Future;

/** The add operation of the shapes service with the asynchronous forms wsimport writes. */
@WebService(name = "ShapesPort", targetNamespace = "urn:shapes")
public interface ShapesAsyncPort {
  int add(int a, int b);

  @WebMethod(operationName = "add")
  Response<Integer> addAsync(int a, int b);

  @WebMethod(operationName = "add")
  Future<?> addAsync(int a, int b, AsyncHandler<Integer> handler);
}
