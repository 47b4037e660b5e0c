package dev.ferry.jaxws;

import dev.ferry.jaxws.internal.BytesSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.client.SoapClient;
import dev.ferry.jaxws.internal.AttachmentDataSource;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import java.io.Closeable;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/** A typed operation served and called without JAX-WS annotations, on the same binding. */
class TypedOperationTest {
  static final String NS = "http://cxf.apache.org/mime/types";

  static TypedOperation<Echo, Echo> echo(MtomPolicy policy, SoapVersion version) {
    return TypedOperation.builder(new QName(NS, "testMtom"), Echo.class,
        new QName(NS, "testMtomResponse"), Echo.class).soapAction("urn:testMtom")
        .mtom(policy).version(version).build();
  }

  @Test
  void echoesAnAttachmentFromSpoolToSpool() throws Exception {
    TypedOperation<Echo, Echo> op = echo(MtomPolicy.ALWAYS, SoapVersion.SOAP_12);
    AtomicBoolean spooled = new AtomicBoolean();
    Dispatcher d = op.addTo(Dispatcher.builder(), request -> {
      spooled.set(request.getAttachinfo().getDataSource() instanceof AttachmentDataSource);
      return request;
    }).build();
    byte[] blob = Blobs.random(1 << 20, 9);
    try (SoapServer server = SoapServer.builder().endpoint("/echo", d).build().start();
        SoapClient client = SoapClient.create()) {
      Echo reply = op.call(client, server.uri("/echo"),
          new Echo("typed", new DataHandler(new BytesSource(blob))));
      assertThat(reply.getName()).isEqualTo("typed");
      assertThat(JaxWsClientTest.read(reply.getAttachinfo())).isEqualTo(blob);
      assertThat(reply.getAttachinfo().getDataSource()).isInstanceOf(AttachmentDataSource.class);
      ((Closeable) reply.getAttachinfo()).close();
      assertThat(spooled).isTrue();
    }
  }

  @Test
  void withoutMtomTheBlobIsInlineAndAnExceptionIsAFault() throws Exception {
    TypedOperation<Echo, Echo> op = echo(MtomPolicy.NEVER, SoapVersion.SOAP_11);
    Dispatcher d = op.addTo(Dispatcher.builder(), request -> {
      if (request.getName().equals("fail")) {
        throw new IllegalStateException("asked to fail");
      }
      return request;
    }).build();
    try (SoapServer server = SoapServer.builder().endpoint("/echo", d).build().start();
        SoapClient client = SoapClient.create()) {
      byte[] blob = Blobs.random(5000, 2);
      Echo reply = op.call(client, server.uri("/echo"),
          new Echo("plain", new DataHandler(new BytesSource(blob))));
      assertThat(JaxWsClientTest.read(reply.getAttachinfo())).isEqualTo(blob);
      assertThatThrownBy(() -> op.call(client, server.uri("/echo"),
          new Echo("fail", new DataHandler(new BytesSource(blob)))))
          .isInstanceOfSatisfying(FaultReplyException.class, e -> {
            assertThat(e.fault().reason()).isEqualTo("asked to fail");
            assertThat(e.fault().code()).isEqualTo(SoapVersion.SOAP_11.receiverFaultCode());
          });
    }
  }
}
