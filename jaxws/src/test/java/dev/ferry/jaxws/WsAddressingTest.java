package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jws.WebService;
import jakarta.xml.ws.Action;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.FaultAction;
import jakarta.xml.ws.Provider;
import jakarta.xml.ws.RespectBindingFeature;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.soap.Addressing;
import jakarta.xml.ws.soap.AddressingFeature;
import java.net.URI;
import java.net.http.HttpResponse;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WS-Addressing 1.0 on an endpoint that requires it: what a reply and a fault carry, the faults
 * for a missing header and a ReplyTo that is not anonymous, the generated WSDL's policy and
 * actions, Ferry's own port, and features Ferry does not implement refused at once.
 */
class WsAddressingTest {
  private static final String NS = "urn:wsa:test";
  private static final String WSA = "http://www.w3.org/2005/08/addressing";
  private static RawEndpoint clock;

  @WebService(targetNamespace = NS, name = "Clock")
  public interface Clock {
    String echo(String text);

    @Action(input = "urn:wsa:test:tick", output = "urn:wsa:test:tock",
        fault = @FaultAction(className = Stopped.class, value = "urn:wsa:test:stopped"))
    int tick(int n) throws Stopped;
  }

  /** A code-first fault. */
  public static class Stopped extends Exception {
    public Stopped(String message) {
      super(message);
    }
  }

  @Addressing(required = true)
  @WebService(targetNamespace = NS, serviceName = "ClockService", portName = "ClockPort",
      endpointInterface = "dev.ferry.jaxws.WsAddressingTest$Clock")
  public static class ClockImpl implements Clock {
    @Override
    public String echo(String text) {
      return text;
    }

    @Override
    public int tick(int n) throws Stopped {
      if (n < 0) {
        throw new Stopped("stopped at " + n);
      }
      return n + 1;
    }
  }

  /** A Provider endpoint, on which WS-Addressing is refused. */
  @WebServiceProvider(targetNamespace = NS, serviceName = "Raw")
  public static class Raw implements Provider<Source> {
    @Override
    public Source invoke(Source request) {
      return request;
    }
  }

  @BeforeAll
  static void publish() {
    clock = new RawEndpoint("/clock", new ClockImpl());
  }

  @AfterAll
  static void stop() {
    clock.close();
  }

  @Test
  void aReplyRelatesToTheRequestWithTheOutputAction() throws Exception {
    HttpResponse<String> r = post(headers("urn:wsa:test:tick", "urn:uuid:1234", null),
        "<t:tick xmlns:t=\"" + NS + "\"><arg0>41</arg0></t:tick>");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("<return>42</return>")
        .contains("<wsa:Action xmlns:wsa=\"" + WSA + "\">urn:wsa:test:tock</wsa:Action>")
        .contains(">urn:uuid:1234</wsa:RelatesTo>").contains(">" + WSA + "/anonymous</wsa:To>")
        .containsPattern(">urn:uuid:[0-9a-f-]{36}</wsa:MessageID>");
  }

  @Test
  void theDefaultActionsFollowTheMetadataPattern() throws Exception {
    HttpResponse<String> r = post(headers(NS + ":Clock:echoRequest", "urn:uuid:5", null),
        "<t:echo xmlns:t=\"" + NS + "\"><arg0>hi</arg0></t:echo>");
    assertThat(r.body()).contains(">" + NS + ":Clock:echoResponse</wsa:Action>");
  }

  @Test
  void aDeclaredFaultCarriesItsFaultAction() throws Exception {
    HttpResponse<String> r = post(headers("urn:wsa:test:tick", "urn:uuid:77", null),
        "<t:tick xmlns:t=\"" + NS + "\"><arg0>-1</arg0></t:tick>");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains(">urn:wsa:test:stopped</wsa:Action>")
        .contains(">urn:uuid:77</wsa:RelatesTo>").contains("stopped at -1");
  }

  @Test
  void aRequestWithoutAddressingGetsMessageAddressingHeaderRequired() throws Exception {
    HttpResponse<String> r = post("", "<t:echo xmlns:t=\"" + NS + "\"><arg0>x</arg0></t:echo>");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains(":MessageAddressingHeaderRequired</faultcode>")
        .contains("A required header representing a Message Addressing Property is not"
            + " present: wsa:Action")
        .contains(">wsa:Action</wsa:ProblemHeaderQName>")
        .contains(">" + WSA + "/fault</wsa:Action>");
  }

  @Test
  void aRequestResponseWithoutMessageIdIsRefusedWhenRequired() throws Exception {
    HttpResponse<String> r = post(headers("urn:wsa:test:tick", null, null),
        "<t:tick xmlns:t=\"" + NS + "\"><arg0>1</arg0></t:tick>");
    assertThat(r.body()).contains(">wsa:MessageID</wsa:ProblemHeaderQName>");
  }

  @Test
  void aReplyToAnotherAddressIsRefusedWithOnlyAnonymousAddressSupported() throws Exception {
    HttpResponse<String> r = post(headers("urn:wsa:test:tick", "urn:uuid:9",
        "http://elsewhere.example/replies"), "<t:tick xmlns:t=\"" + NS + "\"><arg0>1</arg0>"
        + "</t:tick>");
    assertThat(r.body()).contains(":InvalidAddressingHeader</faultcode>")
        .contains("wsa:ReplyTo is http://elsewhere.example/replies")
        .contains("answers only on the request's connection (anonymous)")
        .contains(">urn:uuid:9</wsa:RelatesTo>");
  }

  @Test
  void theGeneratedWsdlRequiresAddressingAndNamesTheActions() throws Exception {
    String wsdl = clock.get("wsdl");
    assertThat(wsdl).contains("<wsp:Policy><wsam:Addressing><wsp:Policy/></wsam:Addressing>"
        + "</wsp:Policy>")
        .contains("wsam:Action=\"urn:wsa:test:tick\"").contains("wsam:Action=\"urn:wsa:test:tock\"")
        .contains("wsam:Action=\"urn:wsa:test:stopped\"")
        .contains("wsam:Action=\"" + NS + ":Clock:echoRequest\"");
  }

  @Test
  void ferrysPortSpeaksAddressingToAnEndpointThatRequiresIt() throws Exception {
    Clock port = Service.create(URI.create(clock.address + "?wsdl").toURL(),
        new QName(NS, "ClockService")).getPort(Clock.class, new AddressingFeature());
    assertThat(port.tick(1)).isEqualTo(2);
    assertThatThrownBy(() -> port.tick(-5)).isInstanceOf(Stopped.class)
        .hasMessage("stopped at -5");
    Clock plain = Service.create(URI.create(clock.address + "?wsdl").toURL(),
        new QName(NS, "ClockService")).getPort(Clock.class);
    assertThatThrownBy(() -> plain.echo("x")).isInstanceOf(
        jakarta.xml.ws.soap.SOAPFaultException.class).hasMessageContaining("wsa:Action");
  }

  @Test
  void featuresFerryDoesNotImplementAreRefusedAtPublish() {
    assertThatThrownBy(() -> Endpoint.create(new ClockImpl(), new RespectBindingFeature()))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("does not implement the feature");
    assertThatThrownBy(() -> Endpoint.create(new ClockImpl(), new AddressingFeature(true, true,
        AddressingFeature.Responses.NON_ANONYMOUS))).isInstanceOf(WebServiceException.class)
        .hasMessageContaining("NON_ANONYMOUS responses is not supported");
    Endpoint raw = Endpoint.create(new Raw(), new AddressingFeature());
    assertThatThrownBy(() -> raw.publish(Ports.url("/raw")))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("not supported on a Provider endpoint");
    Service service = Service.create(new QName(NS, "ClockService"));
    service.addPort(new QName(NS, "ClockPort"),
        jakarta.xml.ws.soap.SOAPBinding.SOAP11HTTP_BINDING, clock.address);
    assertThatThrownBy(() -> service.createDispatch(new QName(NS, "ClockPort"), Source.class,
        Service.Mode.PAYLOAD, new AddressingFeature())).isInstanceOf(WebServiceException.class)
        .hasMessageContaining("not supported on a Dispatch");
  }

  private static String headers(String action, String messageId, String replyTo) {
    return "<s:Header><wsa:Action xmlns:wsa=\"" + WSA + "\">" + action + "</wsa:Action>"
        + (messageId == null ? "" : "<wsa:MessageID xmlns:wsa=\"" + WSA + "\">" + messageId
            + "</wsa:MessageID>")
        + (replyTo == null ? "" : "<wsa:ReplyTo xmlns:wsa=\"" + WSA + "\"><wsa:Address>"
            + replyTo + "</wsa:Address></wsa:ReplyTo>")
        + "</s:Header>";
  }

  private static HttpResponse<String> post(String header, String body) throws Exception {
    return clock.post(header, body);
  }
}
