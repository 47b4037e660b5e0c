package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.testkit.WrappingCorpus;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebService;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.ws.BindingType;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Provider;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.handler.Handler;
import jakarta.xml.ws.handler.LogicalHandler;
import jakarta.xml.ws.handler.LogicalMessageContext;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPHandler;
import jakarta.xml.ws.handler.soap.SOAPMessageContext;
import jakarta.xml.ws.soap.SOAPBinding;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The wrapping corpus against JAX-WS endpoints behind a {@link GuardFeature}: a
 * {@code Provider<Source>} in PAYLOAD mode and an SEI implementation, each with a SOAP handler
 * and a logical handler that read the request as handlers do. None of them ever reads the
 * attacker's content, for SOAP 1.1 and 1.2.
 */
class WrappingJaxwsTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String SHOP = "urn:shop";
  private static final WsSecurityPolicy SIGNED = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().build();
  static final List<String> seen = Collections.synchronizedList(new ArrayList<>());
  private static final List<Endpoint> endpoints = new ArrayList<>();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();
  private static TestPki.Credential alice;
  private static String[] addresses = new String[4];

  /** The shop as a typed service. */
  @WebService(targetNamespace = SHOP, name = "Shop")
  public interface ShopPort {
    @WebMethod
    @RequestWrapper(localName = "order", targetNamespace = SHOP)
    String order(@WebParam(name = "item", targetNamespace = SHOP) String item);
  }

  @WebService(targetNamespace = SHOP, serviceName = "ShopService", portName = "ShopPort",
      endpointInterface = "dev.ferry.jaxws.WrappingJaxwsTest$ShopPort")
  public static class Shop implements ShopPort {
    @Override
    public String order(String item) {
      seen.add("sei: " + item);
      return "ok";
    }
  }

  @WebService(targetNamespace = SHOP, serviceName = "ShopService", portName = "ShopPort",
      endpointInterface = "dev.ferry.jaxws.WrappingJaxwsTest$ShopPort")
  @BindingType(SOAPBinding.SOAP12HTTP_BINDING)
  public static class Shop12 extends Shop {}

  @WebServiceProvider(serviceName = "PayloadShop", portName = "PayloadPort",
      targetNamespace = SHOP)
  public static class PayloadShop implements Provider<Source> {
    @Override
    public Source invoke(Source request) {
      seen.add("provider: " + text(request));
      return new javax.xml.transform.stream.StreamSource(new java.io.StringReader(
          "<o:done xmlns:o=\"urn:shop\"/>"));
    }
  }

  @WebServiceProvider(serviceName = "PayloadShop", portName = "PayloadPort",
      targetNamespace = SHOP)
  @BindingType(SOAPBinding.SOAP12HTTP_BINDING)
  public static class PayloadShop12 extends PayloadShop {}

  /** Reads the request as a SOAP handler does: the SAAJ Body. */
  static final class SaajReader implements SOAPHandler<SOAPMessageContext> {
    @Override
    public boolean handleMessage(SOAPMessageContext c) {
      if (!(Boolean) c.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) {
        try {
          seen.add("soap handler: " + c.getMessage().getSOAPBody().getTextContent());
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

  /** Reads the request as a logical handler does: the payload. */
  static final class PayloadReader implements LogicalHandler<LogicalMessageContext> {
    @Override
    public boolean handleMessage(LogicalMessageContext c) {
      if (!(Boolean) c.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) {
        seen.add("logical handler: " + text(c.getMessage().getPayload()));
      }
      return true;
    }

    @Override
    public boolean handleFault(LogicalMessageContext c) {
      return true;
    }

    @Override
    public void close(MessageContext c) {}
  }

  /** The XML of {@code source}. */
  static String text(Source source) {
    try {
      java.io.StringWriter out = new java.io.StringWriter();
      javax.xml.transform.TransformerFactory.newInstance().newTransformer().transform(source,
          new javax.xml.transform.stream.StreamResult(out));
      return out.toString();
    } catch (javax.xml.transform.TransformerException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeAll
  static void publish() throws Exception {
    TestPki pki = TestPki.create("CN=JAX-WS XSW CA", TestPki.KeyType.RSA);
    alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    WsSecurity guard = WsSecurity.builder().inbound(SIGNED).credentials(WsSecurityCredentials
        .builder().trust(TrustMaterial.of(pki.certificate())).build()).build();
    Object[] implementations = {new Shop(), new Shop12(), new PayloadShop(),
        new PayloadShop12()};
    for (int i = 0; i < implementations.length; i++) {
      Endpoint e = Endpoint.create(implementations[i], new GuardFeature(guard));
      List<Handler> chain = List.of(new PayloadReader(), new SaajReader());
      e.getBinding().setHandlerChain(chain);
      addresses[i] = Ports.url("/shop" + i);
      e.publish(addresses[i]);
      endpoints.add(e);
    }
  }

  @AfterAll
  static void stop() {
    endpoints.forEach(Endpoint::stop);
  }

  static String signed(SoapVersion v) throws Exception {
    Payload order = CODEC.payload(v, MtomPolicy.NEVER, List.of(), w -> {
      w.writeStartElement("o", "order", SHOP);
      w.writeNamespace("o", SHOP);
      w.writeStartElement("o", "item", SHOP);
      w.writeCharacters("tea & biscuits");
      w.writeEndElement();
      w.writeEndElement();
    });
    ByteStringBuilder b = new ByteStringBuilder(4096);
    order.writeTo(b.asOutputStream());
    Message m = CODEC.read(b.toByteString(), order.contentType()).toMessage();
    WsSecurity.builder().outbound(SIGNED).credentials(WsSecurityCredentials.builder()
        .key(KeyMaterial.of(alice.key(), alice.chain())).build()).build().protect(m);
    return m.toByteString().utf8();
  }

  private static HttpResponse<String> post(String address, SoapVersion v, String envelope)
      throws Exception {
    HttpRequest r = HttpRequest.newBuilder(URI.create(address)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", v == SoapVersion.SOAP_11 ? "text/xml; charset=utf-8"
            : "application/soap+xml; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
    return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void noEndpointOrHandlerReadsTheAttackersBody() throws Exception {
    for (int i = 0; i < addresses.length; i++) {
      SoapVersion v = i % 2 == 0 ? SoapVersion.SOAP_11 : SoapVersion.SOAP_12;
      String signed = signed(v);
      seen.clear();
      HttpResponse<String> control = post(addresses[i], v, WrappingCorpus.control(signed));
      assertThat(control.statusCode()).as(control.body()).isEqualTo(200);
      assertThat(seen).hasSize(3).allMatch(s -> s.contains("biscuits"));
      for (WrappingCorpus.Attack attack : WrappingCorpus.attacks()) {
        // each to a message signed for it: the same signed timestamp twice is a replay
        WrappingCorpus.Variant variant = attack.apply(signed(v));
        if (variant == null) {
          continue;
        }
        HttpResponse<String> r = post(addresses[i], v, variant.envelope());
        if (r.statusCode() != 200) {
          assertThat(r.body()).as(variant.name()).contains("Fault")
              .doesNotContain("Exception").doesNotContain("replay");
        }
      }
      assertThat(seen).as(addresses[i]).noneMatch(s -> s.contains(WrappingCorpus.EVIL));
    }
  }
}
