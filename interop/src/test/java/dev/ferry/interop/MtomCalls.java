package dev.ferry.interop;

import jakarta.activation.DataHandler;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.handler.MessageContext;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

/**
 * The two operations of CXF's MTOM sample, called through either generated interface: both
 * have {@code testByteArray} and {@code testDataHandler} taking two Holders, so one adapter
 * calls them by name.
 */
record MtomCalls(Object port) {
  EchoReply byteArray(String name, byte[] blob) {
    Holder<String> n = new Holder<>(name);
    Holder<byte[]> b = new Holder<>(blob);
    call("testByteArray", n, b);
    return new EchoReply(n.value, b.value, contentType());
  }

  EchoReply dataHandler(String name, byte[] blob) {
    Holder<String> n = new Holder<>(name);
    Holder<DataHandler> b = new Holder<>(new DataHandler(new BytesDataSource(blob)));
    call("testDataHandler", n, b);
    return new EchoReply(n.value, Blobs.read(b.value), contentType());
  }

  private void call(String operation, Holder<?> name, Holder<?> attachinfo) {
    try {
      Method m = port.getClass().getMethod(operation, Holder.class, Holder.class);
      m.invoke(port, name, attachinfo);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private String contentType() {
    @SuppressWarnings("unchecked")
    Map<String, List<String>> headers = (Map<String, List<String>>)
        ((BindingProvider) port).getResponseContext().get(MessageContext.HTTP_RESPONSE_HEADERS);
    return Blobs.header(headers, "Content-Type");
  }
}
