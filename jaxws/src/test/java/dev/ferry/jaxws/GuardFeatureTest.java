package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.jaxws.internal.BytesSource;
import dev.ferry.jaxws.internal.MtomEchoPort;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import jakarta.activation.DataHandler;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.soap.MessageFactory;
import jakarta.xml.soap.SOAPElement;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Provider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.ServiceMode;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPHandler;
import jakarta.xml.ws.handler.soap.SOAPMessageContext;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WS-Security on a JAX-WS endpoint and port through {@link GuardFeature}, with Ferry's
 * {@code WsSecurity} as the guard: a UsernameToken, a Timestamp, signatures and an encrypted
 * Body each way, and an MTOM attachment beside them.
 */
class GuardFeatureTest {
  private static final QName SERVICE = new QName("http://cxf.apache.org/mime", "TestMtomService");
  private static final WsSecurityPolicy REQUEST = WsSecurityPolicy.builder()
      .usernameToken(WsSecurityPolicy.Password.DIGEST).timestamp(Duration.ofMinutes(5))
      .signBody().signTimestamp().encryptBody().build();
  private static final WsSecurityPolicy REPLY = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().build();

  private static TestPki pki;
  private static TestPki.Credential alice;
  private static TestPki.Credential server;
  private static final SecuredEcho ECHO = new SecuredEcho();
  private static final BodyNoter NOTER = new BodyNoter();
  private static Endpoint endpoint;
  private static URL wsdl;
  private static WsSecurity serverGuard;

  /** The echo, noting who the context says called. */
  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
      targetNamespace = "http://cxf.apache.org/mime",
      endpointInterface = "dev.ferry.jaxws.internal.MtomEchoPort")
  public static class SecuredEcho implements MtomEchoPort {
    @Resource
    private WebServiceContext context;
    final AtomicInteger calls = new AtomicInteger();
    volatile String caller;

    @Override
    public void testMtom(Holder<String> name, Holder<DataHandler> attachinfo) {
      calls.incrementAndGet();
      caller = context.getUserPrincipal().getName();
    }
  }

  /** An endpoint handler noting the first element of each request's Body as it saw it. */
  static final class BodyNoter implements SOAPHandler<SOAPMessageContext> {
    volatile String bodyElement;

    @Override
    public boolean handleMessage(SOAPMessageContext c) {
      if (!(Boolean) c.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) {
        try {
          bodyElement = c.getMessage().getSOAPBody().getFirstChild().getLocalName();
        } catch (SOAPException e) {
          throw new IllegalStateException(e);
        }
      }
      return true;
    }

    @Override
    public boolean handleFault(SOAPMessageContext c) {
      return true;
    }

    @Override
    public void close(MessageContext c) {}

    @Override
    public Set<QName> getHeaders() {
      return Set.of();
    }
  }

  @BeforeAll
  static void publish() throws Exception {
    pki = TestPki.create("CN=JAX-WS WSS CA", TestPki.KeyType.RSA);
    alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    server = pki.issue("CN=server,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    // tag::guard-endpoint[]
    WsSecurity security = WsSecurity.builder()
        .inbound(REQUEST).outbound(REPLY)
        .credentials(WsSecurityCredentials.builder()
            .passwords(user -> user.equals("alice") ? "wonderland".toCharArray() : null)
            .key(KeyMaterial.of(server.key(), server.chain()))
            .trust(TrustMaterial.of(pki.certificate()))
            .build())
        .build();
    endpoint = Endpoint.create(ECHO, new GuardFeature(security));
    // end::guard-endpoint[]
    serverGuard = security;
    endpoint.getBinding().setHandlerChain(List.of(NOTER));
    String address = Ports.url("/secured");
    endpoint.publish(address);
    wsdl = new URL(address + "?wsdl");
  }

  @AfterAll
  static void stop() {
    endpoint.stop();
  }

  private static WsSecurity client(String password, WsSecurityPolicy reply) throws IOException {
    return WsSecurity.builder().outbound(REQUEST).inbound(reply)
        .credentials(WsSecurityCredentials.builder()
            .user("alice", password.toCharArray())
            .key(KeyMaterial.of(alice.key(), alice.chain()))
            .recipient(server.certificate())
            .trust(TrustMaterial.of(pki.certificate()))
            .build())
        .build();
  }

  private static void call(MtomEchoPort port, byte[] blob) {
    Holder<String> name = new Holder<>("order");
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(blob)));
    port.testMtom(name, data);
    assertThat(name.value).isEqualTo("order");
    try (InputStream in = data.value.getInputStream()) {
      assertThat(in.readAllBytes()).isEqualTo(blob);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aGuardedPortCallsAGuardedEndpointWithTheAttachmentBesideTheSignatures()
      throws Exception {
    // tag::guard-port[]
    WsSecurity security = client("wonderland", REPLY);
    MtomEchoPort port = Service.create(wsdl, SERVICE)
        .getPort(MtomEchoPort.class, new MTOMFeature(), new GuardFeature(security));
    // end::guard-port[]
    call(port, Blobs.random(300_000, 3));
    assertThat(ECHO.caller).isEqualTo("alice");
    assertThat(NOTER.bodyElement).as("the handler sees the Body decrypted")
        .isEqualTo("testMtom");
  }

  @Test
  void aServiceWideGuardReachesItsPorts() throws Exception {
    MtomEchoPort port = Service.create(wsdl, SERVICE, new GuardFeature(client("wonderland",
        REPLY))).getPort(MtomEchoPort.class);
    call(port, new byte[] {1, 2, 3});
    assertThat(ECHO.caller).isEqualTo("alice");
  }

  @Test
  void aRequestWithoutTheGuardIsRefusedBeforeTheHandlersAndTheImplementation() {
    MtomEchoPort port = Service.create(wsdl, SERVICE).getPort(MtomEchoPort.class);
    int before = ECHO.calls.get();
    NOTER.bodyElement = null;
    assertThatThrownBy(() -> call(port, new byte[1])).isInstanceOf(SOAPFaultException.class)
        .satisfies(e -> assertThat(((SOAPFaultException) e).getFault().getFaultCodeAsQName()
            .getLocalPart()).isEqualTo("InvalidSecurity"));
    assertThat(ECHO.calls.get()).isEqualTo(before);
    assertThat(NOTER.bodyElement).isNull();
  }

  @Test
  void theRequestContextSetsAGuardPerCall() throws Exception {
    MtomEchoPort port = Service.create(wsdl, SERVICE).getPort(MtomEchoPort.class);
    var context = ((BindingProvider) port).getRequestContext();
    context.put(GuardFeature.REQUEST_PROPERTY, client("wonderland", REPLY));
    call(port, new byte[] {4});
    context.put(GuardFeature.REQUEST_PROPERTY, client("looking-glass", REPLY));
    assertThatThrownBy(() -> call(port, new byte[] {5})).isInstanceOf(SOAPFaultException.class)
        .hasMessageContaining("authenticate");
    context.put(GuardFeature.REQUEST_PROPERTY, "not a guard");
    assertThatThrownBy(() -> call(port, new byte[] {6}))
        .hasMessageContaining(GuardFeature.REQUEST_PROPERTY + " must be a MessageGuard");
  }

  @Test
  void aSaajDispatchIsSecuredToo() throws Exception {
    Dispatch<SOAPMessage> dispatch = Service.create(wsdl, SERVICE).createDispatch(
        new QName(SERVICE.getNamespaceURI(), "TestMtomPort"), SOAPMessage.class,
        Service.Mode.MESSAGE, new GuardFeature(client("wonderland", REPLY)));
    SOAPMessage request = MessageFactory.newInstance().createMessage();
    SOAPElement call = request.getSOAPBody().addChildElement("testMtom", "t",
        MtomEchoPort.TYPES);
    call.addChildElement("name", "t").addTextNode("by SAAJ");
    call.addChildElement("attachinfo", "t").addTextNode("AQID");
    SOAPMessage reply = dispatch.invoke(request);
    assertThat(reply.getSOAPBody().getElementsByTagNameNS(MtomEchoPort.TYPES, "name").item(0)
        .getTextContent()).isEqualTo("by SAAJ");
    assertThat(ECHO.caller).isEqualTo("alice");
  }

  /** A SAAJ provider: tells which Body element it was given, and by whom. */
  @WebServiceProvider(serviceName = "SaajService", portName = "SaajPort",
      targetNamespace = "urn:saaj")
  @ServiceMode(Service.Mode.MESSAGE)
  public static class SaajEcho implements Provider<SOAPMessage> {
    @Resource
    private WebServiceContext context;

    @Override
    public SOAPMessage invoke(SOAPMessage request) {
      try {
        SOAPMessage reply = MessageFactory.newInstance().createMessage();
        reply.getSOAPBody().addChildElement("saw", "s", "urn:saaj").addTextNode(
            request.getSOAPBody().getFirstChild().getLocalName() + " from "
            + context.getUserPrincipal().getName());
        return reply;
      } catch (SOAPException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void aSaajProviderIsGuardedLikeAnImplementation() throws Exception {
    Endpoint provider = Endpoint.create(new SaajEcho(), new GuardFeature(serverGuard));
    String address = Ports.url("/saaj");
    provider.publish(address);
    try {
      QName port = new QName("urn:saaj", "SaajPort");
      Service service = Service.create(new QName("urn:saaj", "SaajService"));
      service.addPort(port, jakarta.xml.ws.soap.SOAPBinding.SOAP11HTTP_BINDING, address);
      Dispatch<SOAPMessage> dispatch = service.createDispatch(port, SOAPMessage.class,
          Service.Mode.MESSAGE, new GuardFeature(client("wonderland", REPLY)));
      SOAPMessage request = MessageFactory.newInstance().createMessage();
      request.getSOAPBody().addChildElement("hello", "s", "urn:saaj");
      SOAPMessage reply = dispatch.invoke(request);
      assertThat(reply.getSOAPBody().getTextContent()).isEqualTo("hello from alice");
    } finally {
      provider.stop();
    }
  }

  @Test
  void aReplyThatFailsThePortsChecksFailsTheCallAsASoapFault() throws Exception {
    WsSecurityPolicy encryptedReply = WsSecurityPolicy.builder().encryptBody().build();
    MtomEchoPort port = Service.create(wsdl, SERVICE).getPort(MtomEchoPort.class,
        new GuardFeature(client("wonderland", encryptedReply)));
    assertThatThrownBy(() -> call(port, new byte[] {7})).isInstanceOf(SOAPFaultException.class)
        .rootCause().hasMessageContaining("an encrypted Body");
  }
}
