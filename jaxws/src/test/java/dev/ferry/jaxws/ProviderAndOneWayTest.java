package dev.ferry.jaxws;

import dev.ferry.jaxws.internal.BytesSource;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.testkit.Blobs;
import jakarta.activation.DataHandler;
import jakarta.jws.Oneway;
import jakarta.jws.WebService;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Provider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.ServiceMode;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.soap.MTOM;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.io.StringReader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import org.junit.jupiter.api.Test;

/** Provider endpoints for raw XML, one-way operations and an MTOM threshold. */
class ProviderAndOneWayTest {
  static final QName SERVICE = new QName("urn:raw", "RawService");
  static final QName PORT = new QName("urn:raw", "RawPort");

  /** Answers each payload with a {@code <seen>} element holding its root's name. */
  @WebServiceProvider(serviceName = "RawService", portName = "RawPort",
      targetNamespace = "urn:raw")
  public static class PayloadProvider implements Provider<Source> {
    @Override
    public Source invoke(Source request) {
      String root;
      try {
        javax.xml.transform.dom.DOMResult dom = new javax.xml.transform.dom.DOMResult();
        javax.xml.transform.TransformerFactory.newInstance().newTransformer()
            .transform(request, dom);
        root = ((org.w3c.dom.Document) dom.getNode()).getDocumentElement().getLocalName();
      } catch (javax.xml.transform.TransformerException e) {
        throw new IllegalStateException(e);
      }
      return new StreamSource(new StringReader("<r:seen xmlns:r=\"urn:raw\">" + root
          + "</r:seen>"));
    }
  }

  /** Answers each whole message with itself, a header block added. */
  @WebServiceProvider(serviceName = "RawService", portName = "RawPort",
      targetNamespace = "urn:raw")
  @ServiceMode(Service.Mode.MESSAGE)
  public static class MessageProvider implements Provider<SOAPMessage> {
    @Override
    public SOAPMessage invoke(SOAPMessage request) {
      try {
        request.getSOAPHeader().addHeaderElement(new QName("urn:raw", "echoed", "r"))
            .addTextNode("yes");
        return request;
      } catch (SOAPException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** One-way notes, and an echo that attaches only from 10 KiB. */
  @WebService(name = "Notes", targetNamespace = "urn:notes")
  public interface NotesPort {
    @Oneway
    void note(String text);

    void echo(Holder<DataHandler> blob);
  }

  /** The notes service. */
  @MTOM(threshold = 10 * 1024)
  @WebService(endpointInterface = "dev.ferry.jaxws.ProviderAndOneWayTest$NotesPort",
      targetNamespace = "urn:notes")
  public static class Notes implements NotesPort {
    final CountDownLatch noted = new CountDownLatch(1);
    volatile String last;

    @Override
    public void note(String text) {
      last = text;
      noted.countDown();
    }

    @Override
    public void echo(Holder<DataHandler> blob) {}
  }

  @Test
  void aPayloadProviderAnswersADispatch() throws Exception {
    String at = Ports.url("/raw");
    Endpoint e = Endpoint.publish(at, new PayloadProvider());
    try {
      Service service = Service.create(SERVICE);
      service.addPort(PORT, SOAPBinding.SOAP11HTTP_BINDING, at);
      Dispatch<Source> d = service.createDispatch(PORT, Source.class, Service.Mode.PAYLOAD);
      Source reply = d.invoke(new StreamSource(new StringReader("<q:question xmlns:q=\"urn:q\""
          + "><q:why/></q:question>")));
      assertThat(JaxWsClientTest.text(reply)).contains("seen").contains(">question<");
    } finally {
      e.stop();
    }
  }

  @Test
  void aMessageProviderAnswersASoapMessageDispatch() throws Exception {
    String at = Ports.url("/raw");
    Endpoint e = Endpoint.publish(at, new MessageProvider());
    try {
      Service service = Service.create(SERVICE);
      service.addPort(PORT, SOAPBinding.SOAP11HTTP_BINDING, at);
      Dispatch<SOAPMessage> d = service.createDispatch(PORT, SOAPMessage.class,
          Service.Mode.MESSAGE);
      SOAPMessage request = ((SOAPBinding) d.getBinding()).getMessageFactory().createMessage();
      request.getSOAPBody().addBodyElement(new QName("urn:q", "ask", "q")).addTextNode("hi");
      SOAPMessage reply = d.invoke(request);
      assertThat(reply.getSOAPHeader().getTextContent()).isEqualTo("yes");
      assertThat(reply.getSOAPBody().getTextContent()).isEqualTo("hi");
      // the endpoint speaks SOAP 1.1 (its binding's default): a SOAP 1.2 request is refused
      java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create(at))
              .header("Content-Type", "application/soap+xml")
              .POST(java.net.http.HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s="
                  + "\"http://www.w3.org/2003/05/soap-envelope\"><s:Body><q:ask xmlns:q="
                  + "\"urn:q\">hi</q:ask></s:Body></s:Envelope>")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(r.body()).contains("VersionMismatch").contains("speaks SOAP 1.1");
    } finally {
      e.stop();
    }
  }

  @Test
  void aOneWayCallReturnsAtOnceAndTheEndpointRunsIt() throws Exception {
    String at = Ports.url("/notes");
    Notes notes = new Notes();
    Endpoint e = Endpoint.publish(at, notes);
    try {
      NotesPort port = Service.create(new QName("urn:notes", "NotesService"))
          .getPort(NotesPort.class);
      ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
          at);
      port.note("remember");
      assertThat(notes.noted.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(notes.last).isEqualTo("remember");
      assertThat(((BindingProvider) port).getResponseContext()
          .get(MessageContext.HTTP_RESPONSE_CODE)).isEqualTo(202);
    } finally {
      e.stop();
    }
  }

  @Test
  void theEndpointsThresholdKeepsSmallBlobsInline() throws Exception {
    String at = Ports.url("/notes");
    Endpoint e = Endpoint.publish(at, new Notes());
    try {
      NotesPort port = Service.create(new QName("urn:notes", "NotesService"))
          .getPort(NotesPort.class, new MTOMFeature(true));
      ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
          at);
      for (int size : new int[] {1000, 20_000}) {
        byte[] blob = Blobs.random(size, size);
        Holder<DataHandler> h = new Holder<>(new DataHandler(new BytesSource(blob)));
        port.echo(h);
        assertThat(JaxWsClientTest.read(h.value)).isEqualTo(blob);
        // the reply is an XOP package either way; below the threshold its blob is inline
        assertThat(h.value.getDataSource() instanceof dev.ferry.jaxws.internal
            .AttachmentDataSource).as("%d bytes attached", size).isEqualTo(size >= 10 * 1024);
      }
    } finally {
      e.stop();
    }
  }
}
