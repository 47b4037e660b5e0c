package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CXF's own MTOM sample contract, its interface generated at build time by CXF's wsdl2java and
 * by Metro's wsimport, run unchanged on Ferry: as a server that CXF's and Metro's clients call,
 * and as a client of CXF's and Metro's servers. Every echo is checked byte for byte, and the
 * Content-Types on the wire say MTOM when it is on and plain SOAP when off.
 */
class MtomContractInteropTest {
  static final JaxWsStack.Contract CONTRACT = new JaxWsStack.Contract(
      "cxf-samples/mtom_xop.wsdl", new QName(MtomEchoImpls.NS, "TestMtomService"),
      new QName(MtomEchoImpls.NS, "TestMtomPort"));
  static final List<Integer> SIZES_11 = List.of(0, 70 * Blobs.KIB, Blobs.MIB);

  /** Client stack, server stack: Ferry on one side, a peer on the other. */
  static Stream<Arguments> pairs() {
    return Stream.of(Arguments.of(JaxWsStack.CXF, JaxWsStack.FERRY),
        Arguments.of(JaxWsStack.METRO, JaxWsStack.FERRY),
        Arguments.of(JaxWsStack.FERRY, JaxWsStack.CXF),
        Arguments.of(JaxWsStack.FERRY, JaxWsStack.METRO));
  }

  static Stream<Arguments> pairsAndModes() {
    return pairs().flatMap(p -> Stream.of(false, true).flatMap(soap12 -> Stream.of(true, false)
        .map(mtom -> Arguments.of(p.get()[0], p.get()[1], soap12, mtom))));
  }

  @ParameterizedTest(name = "{0} client, {1} server, SOAP 1.2 {2}, MTOM {3}")
  @MethodSource("pairsAndModes")
  void echoesBothOperations(JaxWsStack client, JaxWsStack server, boolean soap12,
      boolean mtom) {
    List<Integer> sizes = soap12 ? List.of(64 * Blobs.KIB) : SIZES_11;
    MtomEchoImpls.Noting impl = implementation(client, server);
    try (JaxWsStack.Served s = server.serve(impl, "/mtom", soap12, mtom)) {
      MtomCalls port = new MtomCalls(client.port(sei(client, server), CONTRACT, s.uri(), soap12,
          mtom));
      for (int size : sizes) {
        byte[] blob = Blobs.of(size);
        check(port.dataHandler(Blobs.NAME, blob), blob, impl, soap12, mtom);
        if (!soap12) {
          check(port.byteArray(Blobs.NAME, blob), blob, impl, false, mtom);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} client, {1} server")
  @MethodSource("pairs")
  void echoesTwelveMebibytesWithMtom(JaxWsStack client, JaxWsStack server) {
    MtomEchoImpls.Noting impl = implementation(client, server);
    try (JaxWsStack.Served s = server.serve(impl, "/mtom", false, true)) {
      MtomCalls port = new MtomCalls(client.port(sei(client, server), CONTRACT, s.uri(), false,
          true));
      byte[] blob = Blobs.of(Blobs.LARGE);
      check(port.dataHandler(Blobs.NAME, blob), blob, impl, false, true);
    }
  }

  /** Ferry serves the contract's own WSDL at ?wsdl, and CXF builds a working port from it. */
  @Test
  void theNamedWsdlIsServedAsItIsWithTheAddressReplaced() throws Exception {
    MtomEchoImpls.CxfWithWsdl impl = new MtomEchoImpls.CxfWithWsdl();
    try (JaxWsStack.Served s = JaxWsStack.FERRY.serve(impl, "/sample", false, true);
        HttpClient http = HttpClient.newHttpClient()) {
      String served = http.send(HttpRequest.newBuilder(URI.create(s.uri() + "?wsdl")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      String original;
      try (InputStream in = CONTRACT.wsdl().openStream()) {
        original = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(served).isEqualTo(original.replace("http://localhost:9000/mime-test",
          s.uri().toString()));
      dev.ferry.interop.cxfmtom.TestMtomPortType port = CxfPeer.fromWsdl(
          dev.ferry.interop.cxfmtom.TestMtomPortType.class, URI.create(s.uri() + "?wsdl"),
          CONTRACT.service(), CONTRACT.port());
      byte[] blob = Blobs.of(Blobs.KIB);
      check(new MtomCalls(port).dataHandler(Blobs.NAME, blob), blob, impl, false, false);
    }
  }

  /** Each peer uses its own generated interface; Ferry uses the peer's on its side. */
  private static Class<?> sei(JaxWsStack client, JaxWsStack server) {
    return client == JaxWsStack.METRO || server == JaxWsStack.METRO
        ? dev.ferry.interop.metromtom.TestMtomPortType.class
        : dev.ferry.interop.cxfmtom.TestMtomPortType.class;
  }

  private static MtomEchoImpls.Noting implementation(JaxWsStack client, JaxWsStack server) {
    return sei(client, server) == dev.ferry.interop.cxfmtom.TestMtomPortType.class
        ? new MtomEchoImpls.Cxf() : new MtomEchoImpls.Metro();
  }

  private static void check(EchoReply reply, byte[] blob, MtomEchoImpls.Noting impl,
      boolean soap12, boolean mtom) {
    assertThat(reply.name()).isEqualTo(Blobs.NAME);
    Blobs.assertSameBytes(reply.attachinfo() == null ? new byte[0] : reply.attachinfo(), blob);
    assertWire(impl.lastRequestContentType, soap12, mtom);
    assertWire(reply.contentType(), soap12, mtom);
  }

  /** The Content-Type of a message of {@code soap12}'s version, MTOM or plain. */
  static void assertWire(String contentType, boolean soap12, boolean mtom) {
    assertThat(contentType).as("Content-Type on the wire").isNotNull();
    String lower = contentType.toLowerCase(Locale.ROOT);
    String soapType = soap12 ? "application/soap+xml" : "text/xml";
    if (mtom) {
      assertThat(lower).startsWith("multipart/related").contains("application/xop+xml")
          .contains("start-info=\"" + soapType);
    } else {
      assertThat(lower).startsWith(soapType);
    }
  }
}
