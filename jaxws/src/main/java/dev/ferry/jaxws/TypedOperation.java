package dev.ferry.jaxws;

import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.jaxws.internal.TypedBinding;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import javax.xml.namespace.QName;

/**
 * A SOAP operation typed by a request class and a response class, without JAX-WS annotations:
 * each is bound with JAXB under the element name given (document/literal, the class's
 * properties as child elements; a {@code DataHandler} or {@code byte[]} property travels as an
 * MTOM attachment when the policy says so, never through base64). The same binding as JAX-WS
 * endpoints and ports, and the JAXB context is made once, by {@link Builder#build()}.
 *
 * <pre>{@code
 * TypedOperation<Echo, Echo> echo = TypedOperation.builder(
 *     new QName(NS, "testMtom"), Echo.class, new QName(NS, "testMtomResponse"), Echo.class)
 *     .soapAction("urn:testMtom").mtom(MtomPolicy.ALWAYS).build();
 * SoapServer server = SoapServer.builder()
 *     .endpoint("/echo", echo.addTo(Dispatcher.builder(), request -> request).build())
 *     .build().start();
 * Echo reply = echo.call(client, server.uri("/echo"), new Echo("name", dataHandler));
 * }</pre>
 *
 * Thread-safe; share one per operation.
 */
public final class TypedOperation<I, O> {
  private final TypedBinding<I, O> binding;
  private final QName requestElement;
  private final String soapAction;

  private TypedOperation(Builder<I, O> b) {
    this.requestElement = b.requestElement;
    this.soapAction = b.soapAction;
    this.binding = new TypedBinding<>(b.requestElement, b.requestType, b.responseElement,
        b.responseType, b.version, b.policy, b.codec);
  }

  /** Starts an operation whose request is {@code requestType} as {@code requestElement}. */
  public static <I, O> Builder<I, O> builder(QName requestElement, Class<I> requestType,
      QName responseElement, Class<O> responseType) {
    return new Builder<>(requestElement, requestType, responseElement, responseType);
  }

  /** Answers each request with what {@code handler} returns. */
  public Endpoint endpoint(Handler<? super I, ? extends O> handler) {
    return binding.endpoint(handler::handle);
  }

  /** Adds {@code handler}'s endpoint to {@code dispatcher}, by request element and action. */
  public Dispatcher.Builder addTo(Dispatcher.Builder dispatcher,
      Handler<? super I, ? extends O> handler) {
    Endpoint e = endpoint(handler);
    dispatcher.element(requestElement, e);
    if (soapAction != null && !soapAction.isEmpty()) {
      dispatcher.soapAction(soapAction, e);
    }
    return dispatcher;
  }

  /**
   * Sends {@code request} to {@code uri} with {@code client} and returns the reply's response.
   * DataHandlers in it read from the reply's spools; the reply is released when they are
   * closed (they are {@code Closeable}), or when none was handed out, at once.
   *
   * @throws FaultReplyException if the reply is a SOAP fault
   */
  public O call(SoapClient client, URI uri, I request) throws IOException {
    // the span is named as the server names its own: after the request element
    SoapResponse response = client.call(SoapRequest.builder(uri, binding.request(request))
        .soapAction(binding.version() == SoapVersion.SOAP_11
            ? soapAction == null ? "" : soapAction : null)
        .operation(requestElement.getNamespaceURI(), requestElement.getLocalPart()).build());
    return binding.response(response);
  }

  /** What an endpoint does with each request. */
  @FunctionalInterface
  public interface Handler<I, O> {
    /** Returns the response; an exception becomes a Receiver (Server) fault with its message. */
    O handle(I request) throws Exception;
  }

  /** Configures a {@link TypedOperation}. */
  public static final class Builder<I, O> {
    private final QName requestElement;
    private final Class<I> requestType;
    private final QName responseElement;
    private final Class<O> responseType;
    private String soapAction = "";
    private SoapVersion version = SoapVersion.SOAP_11;
    private MtomPolicy policy = MtomPolicy.DEFAULT;
    private SoapCodec codec = SoapCodec.create();

    private Builder(QName requestElement, Class<I> requestType, QName responseElement,
        Class<O> responseType) {
      this.requestElement = Objects.requireNonNull(requestElement);
      this.requestType = Objects.requireNonNull(requestType);
      this.responseElement = Objects.requireNonNull(responseElement);
      this.responseType = Objects.requireNonNull(responseType);
    }

    /** The SOAPAction requests carry (SOAP 1.1) and are also dispatched by; "" by default. */
    public Builder<I, O> soapAction(String action) {
      this.soapAction = Objects.requireNonNull(action);
      return this;
    }

    /** SOAP 1.1 (the default) or 1.2. */
    public Builder<I, O> version(SoapVersion version) {
      this.version = Objects.requireNonNull(version);
      return this;
    }

    /** When binary content is attached ({@link MtomPolicy#DEFAULT} by default). */
    public Builder<I, O> mtom(MtomPolicy policy) {
      this.policy = Objects.requireNonNull(policy);
      return this;
    }

    /** The codec messages are written with and replies read with (limits). */
    public Builder<I, O> codec(SoapCodec codec) {
      this.codec = Objects.requireNonNull(codec);
      return this;
    }

    /** Makes the JAXB context of both types once; throws if a type does not bind. */
    public TypedOperation<I, O> build() {
      return new TypedOperation<>(this);
    }
  }
}
