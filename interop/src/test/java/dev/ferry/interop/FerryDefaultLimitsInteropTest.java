package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import org.apache.cxf.Bus;
import org.junit.jupiter.api.Test;

/**
 * Ferry's server against CXF's client sending the seed case's largest message, a 12 MiB blob
 * inline: its defaults take it (CXF's do), and a server whose root limit is lower tells the
 * client so in a SOAP fault it understands, not by a dropped connection.
 */
class FerryDefaultLimitsInteropTest {

  @Test
  void theDefaultsTakeTwelveMebibytesInlineFromCxf() throws Exception {
    Bus bus = CxfPeer.newBus();
    try (FerryPeer.EchoServer server = new FerryPeer.EchoServer(SoapCodec.create())) {
      TestMtomPort port = CxfPeer.client(bus, server.uri(), false);
      byte[] blob = Blobs.of(Blobs.LARGE);
      assertThat(JaxWsEcho.call(port, Blobs.NAME, blob).attachinfo()).isEqualTo(blob);
    } finally {
      bus.shutdown(true);
    }
  }

  @Test
  void aLowerRootLimitIsAFaultNamingIt() throws IOException {
    Bus bus = CxfPeer.newBus();
    SoapCodec small = SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
        .maxRootBytes(8 << 20).build()).build(), XopCodec.builder());
    try (FerryPeer.EchoServer server = new FerryPeer.EchoServer(small)) {
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
