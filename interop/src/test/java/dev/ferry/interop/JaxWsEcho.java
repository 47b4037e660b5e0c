package dev.ferry.interop;

import jakarta.activation.DataHandler;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.handler.MessageContext;
import java.util.List;
import java.util.Map;

/** One echo round trip through a JAX-WS proxy, whichever peer made the proxy. */
final class JaxWsEcho {
  private JaxWsEcho() {}

  static EchoReply call(TestMtomPort port, String name, byte[] blob) {
    Holder<String> nameHolder = new Holder<>(name);
    Holder<DataHandler> blobHolder =
        new Holder<>(new DataHandler(new BytesDataSource(blob)));
    port.testMtom(nameHolder, blobHolder);
    return new EchoReply(nameHolder.value, Blobs.read(blobHolder.value),
        responseContentType(port));
  }

  private static String responseContentType(TestMtomPort port) {
    @SuppressWarnings("unchecked")
    Map<String, List<String>> headers = (Map<String, List<String>>)
        ((BindingProvider) port).getResponseContext().get(MessageContext.HTTP_RESPONSE_HEADERS);
    return Blobs.header(headers, "Content-Type");
  }
}
