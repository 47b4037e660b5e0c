package dev.ferry.tracing;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attributes of Ferry's spans. Those of OpenTelemetry's semantic conventions for RPC and
 * HTTP keep their names there; those of SOAP itself are under {@code soap.}.
 *
 * <table>
 *   <caption>Attributes, and the spans that carry them</caption>
 *   <tr><th>attribute</th><th>value</th><th>spans</th></tr>
 *   <tr><td>{@code rpc.system}</td><td>{@code soap}</td><td>all</td></tr>
 *   <tr><td>{@code rpc.service}</td><td>the WSDL service (JAX-WS), else the namespace of the
 *       Body's element</td><td>server, client where given, broker</td></tr>
 *   <tr><td>{@code rpc.method}</td><td>the WSDL operation (JAX-WS), else the local name of the
 *       Body's element (the broker: else the wsa:Action or SOAPAction)</td><td>server, client
 *       where given, broker</td></tr>
 *   <tr><td>{@code soap.version}</td><td>{@code 1.1} or {@code 1.2}</td><td>all</td></tr>
 *   <tr><td>{@code soap.fault.code}</td><td>the fault's code, such as {@code Sender} or
 *       {@code Client}</td><td>where the reply is a fault</td></tr>
 *   <tr><td>{@code soap.attachment.count}</td><td>the request's attachments</td>
 *       <td>server</td></tr>
 *   <tr><td>{@code http.request.method}, {@code http.response.status_code},
 *       {@code http.request.body.size}, {@code http.response.body.size}</td><td>as HTTP's
 *       conventions say: the body sizes are the bytes of the request and of the reply</td>
 *       <td>all</td></tr>
 *   <tr><td>{@code url.path}, {@code url.scheme}, {@code client.address}</td><td>the
 *       request's</td><td>server</td></tr>
 *   <tr><td>{@code url.full}, {@code server.address}, {@code server.port}</td><td>where the
 *       call went</td><td>client</td></tr>
 *   <tr><td>{@code error.type}</td><td>the fault code, the HTTP status or the exception's
 *       class</td><td>a span that failed</td></tr>
 * </table>
 *
 * <p>Server spans are named {@code service/method} once the endpoint is known, else
 * {@code POST /path}; client spans {@code service/method} where the call names its operation
 * ({@code SoapRequest.Builder.operation}, as JAX-WS ports do), else {@code POST}. The broker
 * makes a server span per exchange (scope {@code dev.ferry.broker}), named after the Body's
 * element once a route took the request, and a client span per member tried as its child, with
 * the client spans' {@code url.full}, {@code server.address} and {@code server.port} naming the
 * member.
 */
public final class SoapAttributes {
  /** {@code rpc.system}: always {@code soap}. */
  public static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
  /** {@code rpc.service}. */
  public static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
  /** {@code rpc.method}. */
  public static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
  /** {@code soap.version}: {@code 1.1} or {@code 1.2}. */
  public static final AttributeKey<String> SOAP_VERSION = AttributeKey.stringKey("soap.version");
  /** {@code soap.fault.code}: the local name of the fault's code. */
  public static final AttributeKey<String> SOAP_FAULT_CODE =
      AttributeKey.stringKey("soap.fault.code");
  /** {@code soap.attachment.count}. */
  public static final AttributeKey<Long> SOAP_ATTACHMENT_COUNT =
      AttributeKey.longKey("soap.attachment.count");
  /** {@code http.request.method}. */
  public static final AttributeKey<String> HTTP_REQUEST_METHOD =
      AttributeKey.stringKey("http.request.method");
  /** {@code http.response.status_code}. */
  public static final AttributeKey<Long> HTTP_RESPONSE_STATUS_CODE =
      AttributeKey.longKey("http.response.status_code");
  /** {@code http.request.body.size}: the bytes of the request's body. */
  public static final AttributeKey<Long> HTTP_REQUEST_BODY_SIZE =
      AttributeKey.longKey("http.request.body.size");
  /** {@code http.response.body.size}: the bytes of the reply's body. */
  public static final AttributeKey<Long> HTTP_RESPONSE_BODY_SIZE =
      AttributeKey.longKey("http.response.body.size");
  /** {@code url.path}. */
  public static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
  /** {@code url.scheme}. */
  public static final AttributeKey<String> URL_SCHEME = AttributeKey.stringKey("url.scheme");
  /** {@code url.full}. */
  public static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
  /** {@code server.address}. */
  public static final AttributeKey<String> SERVER_ADDRESS =
      AttributeKey.stringKey("server.address");
  /** {@code server.port}. */
  public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  /** {@code client.address}. */
  public static final AttributeKey<String> CLIENT_ADDRESS =
      AttributeKey.stringKey("client.address");
  /** {@code error.type}. */
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  private SoapAttributes() {}
}
