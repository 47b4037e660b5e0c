package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.soap.SoapCodec;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import org.apache.cxf.Bus;
import org.junit.jupiter.api.Test;

/**
 * Ferry's server with its default limits against a 12 MiB blob sent inline: the envelope
 * (16 MiB of base64 and the rest) is over {@code maxRootBytes}, and the client is told so in a
 * SOAP fault it understands, not by a dropped connection.
 */
class FerryDefaultLimitsInteropTest {

  @Test
  void cxfClientGetsAFaultNamingTheLimit() throws IOException {
    Bus bus = CxfPeer.newBus();
    try (FerryPeer.EchoServer server = new FerryPeer.EchoServer(SoapCodec.create())) {
      TestMtomPort port = CxfPeer.client(bus, server.uri(), false);
      byte[] blob = Blobs.of(Blobs.LARGE);
      assertThatThrownBy(() -> JaxWsEcho.call(port, Blobs.NAME, blob))
          .isInstanceOf(SOAPFaultException.class)
          .hasMessageContaining("maxRootBytes");
    } finally {
      bus.shutdown(true);
    }
  }
}
