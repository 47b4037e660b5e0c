package dev.ferry.jaxws;

import dev.ferry.jaxws.internal.BytesSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.jaxws.internal.MtomEchoPort;
import dev.ferry.jaxws.internal.ShapesPort;
import dev.ferry.testkit.Blobs;
import jakarta.activation.DataHandler;
import jakarta.jws.WebService;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Response;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.handler.Handler;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.Closeable;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** JAX-WS clients made by Ferry's provider, calling endpoints Ferry's provider published. */
class JaxWsClientTest {
  static final QName ECHO_SERVICE = new QName("http://cxf.apache.org/mime", "TestMtomService");
  static final QName SHAPES_SERVICE = new QName("urn:shapes", "ShapesService");
  static final QName SHAPES_PORT = new QName("urn:shapes", "ShapesPortPort");
  static final List<Endpoint> ENDPOINTS = new ArrayList<>();
  static final EchoImpl ECHO = new EchoImpl();
  static String base;

  @BeforeAll
  static void publish() {
    base = Ports.url("");
    ENDPOINTS.add(Endpoint.publish(base + "/echo", ECHO));
    ENDPOINTS.add(Endpoint.publish(base + "/shapes", new ShapesImpl()));
    ENDPOINTS.add(Endpoint.publish(base + "/bank", new Bank()));
    ENDPOINTS.add(Endpoint.publish(base + "/slow", new Slow()));
  }

  @AfterAll
  static void stop() {
    ENDPOINTS.forEach(Endpoint::stop);
  }

  @Test
  void aPortFromTheServedWsdlEchoesWithMtom() throws Exception {
    MtomEchoPort port = Service.create(new URL(base + "/echo?wsdl"), ECHO_SERVICE)
        .getPort(MtomEchoPort.class, new MTOMFeature());
    byte[] blob = Blobs.random(700_000, 11);
    Holder<String> name = new Holder<>("échos <&>");
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(blob)));
    port.testMtom(name, data);
    assertThat(name.value).isEqualTo("échos <&>");
    assertThat(read(data.value)).isEqualTo(blob);
    assertThat(data.value).isInstanceOf(Closeable.class);
    ((Closeable) data.value).close();
    assertThat(contentType(port)).startsWith("multipart/related");
    assertThat(((BindingProvider) port).getResponseContext()
        .get(MessageContext.HTTP_RESPONSE_CODE)).isEqualTo(200);
  }

  @Test
  void mtomOffSendsAndGetsBase64() throws Exception {
    MtomEchoPort port = Service.create(new URL(base + "/echo?wsdl"), ECHO_SERVICE)
        .getPort(MtomEchoPort.class);
    byte[] blob = Blobs.random(10_000, 12);
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(blob)));
    port.testMtom(new Holder<>("x"), data);
    assertThat(read(data.value)).isEqualTo(blob);
    assertThat(contentType(port)).startsWith("text/xml");
  }

  @Test
  void soap12PortAddedByHandWithHeaderOutAndBareAndRpcOperations() {
    ShapesPort port = shapes(ShapesPort.class);
    assertThat(port.add(2, 40)).isEqualTo(42);
    Holder<String> longest = new Holder<>();
    assertThat(port.count(List.of("a", "ccc", "bb"), "acme", longest)).isEqualTo(3);
    assertThat(longest.value).isEqualTo("acme:ccc");
    assertThat(port.reverse(new byte[] {1, 2, 3})).containsExactly(3, 2, 1);
    assertThat(port.greet("Ada")).isEqualTo("Hello, Ada");
    assertThat(port.total(new long[] {1, 2, 3})).isEqualTo(6);
    assertThat(contentType(port)).startsWith("application/soap+xml");
  }

  @Test
  void declaredFaultsComeBackAsTheirExceptionsAndOthersAsSoapFaults() {
    BankPort bank = bank();
    assertThatThrownBy(() -> bank.withdraw("bogus", 1))
        .isInstanceOfSatisfying(Bank.NoSuchAccount.class, e -> {
          assertThat(e.getMessage()).isEqualTo("no account bogus");
          assertThat(e.getFaultInfo().account).isEqualTo("bogus");
        });
    assertThatThrownBy(() -> bank.withdraw("a", 500)).isInstanceOf(Bank.Overdrawn.class)
        .hasMessage("balance 100 < 500");
    assertThatThrownBy(() -> bank.withdraw("a", -1))
        .isInstanceOfSatisfying(SOAPFaultException.class, e -> assertThat(
            e.getFault().getFaultCodeAsQName()).isEqualTo(new QName("urn:bank",
                "NegativeAmount")));
    assertThatThrownBy(() -> bank.withdraw("a", 0)).isInstanceOf(SOAPFaultException.class)
        .hasMessage("zero");
  }

  @Test
  void asynchronousCallsAsResponseAndWithAHandler() throws Exception {
    ShapesAsyncPort port = shapes(ShapesAsyncPort.class);
    Response<Integer> r = port.addAsync(20, 22);
    assertThat(r.get(10, TimeUnit.SECONDS)).isEqualTo(42);
    assertThat(r.getContext().get(MessageContext.HTTP_RESPONSE_CODE)).isEqualTo(200);
    CompletableFuture<Integer> got = new CompletableFuture<>();
    port.addAsync(1, 2, res -> {
      try {
        got.complete(res.get());
      } catch (Exception e) {
        got.completeExceptionally(e);
      }
    }).get(10, TimeUnit.SECONDS);
    assertThat(got.get(10, TimeUnit.SECONDS)).isEqualTo(3);
  }

  @Test
  void dispatchOfSourcePayloads() throws Exception {
    Service service = Service.create(SHAPES_SERVICE);
    service.addPort(SHAPES_PORT, SOAPBinding.SOAP12HTTP_BINDING, base + "/shapes");
    Dispatch<Source> d = service.createDispatch(SHAPES_PORT, Source.class, Service.Mode.PAYLOAD);
    Source reply = d.invoke(new StreamSource(new StringReader(
        "<s:add xmlns:s=\"urn:shapes\"><arg0>5</arg0><arg1>6</arg1></s:add>")));
    assertThat(text(reply)).contains("addResponse").contains("<return>11</return>");
    Response<Source> later = d.invokeAsync(new StreamSource(new StringReader(
        "<s:add xmlns:s=\"urn:shapes\"><arg0>1</arg0><arg1>1</arg1></s:add>")));
    assertThat(text(later.get(10, TimeUnit.SECONDS))).contains("<return>2</return>");
  }

  @Test
  @SuppressWarnings("rawtypes")
  void handlerChainsOnBothSides() {
    Handlers.Stamp server = new Handlers.Stamp("server");
    Endpoint e = Endpoint.create(new ShapesImpl());
    List<Handler> serverChain = new ArrayList<>(List.of(server));
    e.getBinding().setHandlerChain(serverChain);
    String at = Ports.url("/handled");
    e.publish(at);
    try {
      Handlers.Stamp client = new Handlers.Stamp("client");
      Handlers.Payloads payloads = new Handlers.Payloads();
      ShapesPort port = shapes(ShapesPort.class);
      ((BindingProvider) port).getRequestContext().put(
          BindingProvider.ENDPOINT_ADDRESS_PROPERTY, at);
      List<Handler> chain = new ArrayList<>(List.of(client, payloads));
      ((BindingProvider) port).getBinding().setHandlerChain(chain);
      assertThat(port.add(1, 1)).isEqualTo(2);
      assertThat(server.seen).containsExactly("client");
      assertThat(client.seen).containsExactly("server");
      assertThat(payloads.roots).containsExactly("add", "addResponse");
      assertThat(client.events).containsExactly("client out", "client in", "client close");
      assertThat(server.events).containsExactly("server in", "server out", "server close");
    } finally {
      e.stop();
    }
  }

  @Test
  void aReceiveTimeoutFromTheRequestContextCutsASlowCall() {
    SlowPort port = Service.create(new QName("urn:slow", "SlowService")).getPort(SlowPort.class);
    Map<String, Object> rc = ((BindingProvider) port).getRequestContext();
    rc.put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, base + "/slow");
    port.sleep(0); // the client and its connection are made before the clock starts
    rc.put("jakarta.xml.ws.client.receiveTimeout", 300);
    long start = System.nanoTime();
    assertThatThrownBy(() -> port.sleep(3000)).isInstanceOf(WebServiceException.class)
        .hasMessageContaining("no progress");
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
  }

  @Test
  void credentialsAndHeadersOfTheRequestContextAreSentAndEveryReplyHeaderComesBack()
      throws Exception {
    MtomEchoPort port = Service.create(new URL(base + "/echo?wsdl"), ECHO_SERVICE)
        .getPort(MtomEchoPort.class);
    Map<String, Object> rc = ((BindingProvider) port).getRequestContext();
    rc.put(BindingProvider.USERNAME_PROPERTY, "alice");
    rc.put(BindingProvider.PASSWORD_PROPERTY, "wonderland");
    rc.put(MessageContext.HTTP_REQUEST_HEADERS, Map.of("X-Tenant", List.of("t-7")));
    port.testMtom(new Holder<>("x"), new Holder<>(new DataHandler(new BytesSource(new byte[1]))));
    assertThat(ECHO.tenant).isEqualTo("t-7");
    assertThat(ECHO.authorization).isEqualTo("Basic " + java.util.Base64.getEncoder()
        .encodeToString("alice:wonderland".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    @SuppressWarnings("unchecked")
    Map<String, List<String>> reply = (Map<String, List<String>>) ((BindingProvider) port)
        .getResponseContext().get(MessageContext.HTTP_RESPONSE_HEADERS);
    assertThat(reply).containsKeys("content-type", "DATE"); // all of them, any case
    rc.put(MessageContext.HTTP_REQUEST_HEADERS, Map.of("Content-Length", List.of("1")));
    assertThatThrownBy(() -> port.testMtom(new Holder<>("x"), new Holder<>(new DataHandler(
        new BytesSource(new byte[1]))))).isInstanceOf(WebServiceException.class)
        .hasMessageContaining("the client writes Content-Length itself");
  }

  @Test
  void theSoapActionOfTheRequestContextIsSent() throws Exception {
    MtomEchoPort port = Service.create(new URL(base + "/echo?wsdl"), ECHO_SERVICE)
        .getPort(MtomEchoPort.class);
    Map<String, Object> rc = ((BindingProvider) port).getRequestContext();
    rc.put(BindingProvider.SOAPACTION_USE_PROPERTY, true);
    rc.put(BindingProvider.SOAPACTION_URI_PROPERTY, "urn:testMtom");
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(new byte[1])));
    port.testMtom(new Holder<>("a"), data);
    assertThat(read(data.value)).hasSize(1);
  }

  /** The bank's operations as a client interface. */
  @WebService(name = "Bank", targetNamespace = "urn:bank")
  public interface BankPort {
    @jakarta.jws.WebResult(name = "balance")
    long withdraw(@jakarta.jws.WebParam(name = "account") String account,
        @jakarta.jws.WebParam(name = "amount") long amount)
        throws Bank.NoSuchAccount, Bank.Overdrawn;
  }

  /** A service that takes its time. */
  @WebService(name = "SlowPort", targetNamespace = "urn:slow")
  public interface SlowPort {
    void sleep(long millis);
  }

  /** The slow service. */
  @WebService(endpointInterface = "dev.ferry.jaxws.JaxWsClientTest$SlowPort",
      targetNamespace = "urn:slow")
  public static class Slow implements SlowPort {
    @Override
    public void sleep(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static BankPort bank() {
    BankPort port = Service.create(new QName("urn:bank", "BankService")).getPort(BankPort.class);
    ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
        base + "/bank");
    return port;
  }

  private static <T> T shapes(Class<T> sei) {
    Service service = Service.create(SHAPES_SERVICE);
    service.addPort(SHAPES_PORT, SOAPBinding.SOAP12HTTP_BINDING, base + "/shapes");
    return service.getPort(SHAPES_PORT, sei);
  }

  static String contentType(Object port) {
    @SuppressWarnings("unchecked")
    Map<String, List<String>> h = (Map<String, List<String>>) ((BindingProvider) port)
        .getResponseContext().get(MessageContext.HTTP_RESPONSE_HEADERS);
    return h.get("content-type").get(0);
  }

  static byte[] read(DataHandler dh) throws Exception {
    try (InputStream in = dh.getInputStream()) {
      return in.readAllBytes();
    }
  }

  static String text(Source s) throws Exception {
    java.io.StringWriter w = new java.io.StringWriter();
    javax.xml.transform.TransformerFactory.newInstance().newTransformer().transform(s,
        new javax.xml.transform.stream.StreamResult(w));
    return w.toString();
  }

  static URI uri(String s) {
    return URI.create(s);
  }
}
