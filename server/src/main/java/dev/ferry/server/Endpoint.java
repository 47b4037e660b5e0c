package dev.ferry.server;

import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import jakarta.servlet.http.HttpServletRequest;

/**
 * A SOAP operation: turns a request into the reply to send. The request's attachments are
 * readable while the handler runs and until the reply has been written, so a reply may forward
 * them ({@link Message#toPayload()} of a copy). To answer with a fault, throw
 * {@link SoapFaultException}; any other exception becomes a Receiver/Server fault.
 */
@FunctionalInterface
public interface Endpoint {
  /** Returns the reply, or null for a one-way operation (HTTP 202, no body). */
  Payload handle(Message request) throws Exception;

  /**
   * As {@link #handle(Message)}, for a request that came in {@code http}: an endpoint that needs
   * the HTTP request (its headers, the remote address, the authenticated user) overrides this.
   * The request's body has been read into {@code request}; do not read its stream.
   */
  default Payload handle(Message request, HttpServletRequest http) throws Exception {
    return handle(request);
  }

  /**
   * Whether this endpoint reads the request's whole Body, through the message's own readers and
   * so within the codec's XML limits, and refuses anything after the Body (as JAX-WS operations
   * binding with JAXB do). The server then leaves the Body's check to it, where it would read
   * the Body once before dispatch to check the limits and the envelope's one Body
   * ({@link dev.ferry.soap.MessageBuffer#checkBody}) and then again in the endpoint: a whole
   * extra parse of an inline binary. Default false.
   */
  default boolean readsWholeBody() {
    return false;
  }

  /**
   * The operation this endpoint is, as its WSDL names it, for the server's span
   * ({@code rpc.method}); null (the default) for the local name of the request's Body element.
   */
  default String operation() {
    return null;
  }
}
