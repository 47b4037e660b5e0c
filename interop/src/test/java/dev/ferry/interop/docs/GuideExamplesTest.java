package dev.ferry.interop.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.broker.Broker;
import dev.ferry.broker.BrokerOptions;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MultipartParser;
import dev.ferry.mime.MultipartReader;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.mime.Part;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapFaultException;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Fault;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guides' examples (docs/mime.md, soap.md, server.md, client.md, broker.md), run. */
class GuideExamplesTest {
  @TempDir Path dir;

  @Test
  void mimeWriteAndRead() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    // tag::mime-write[]
    MultipartWriter writer = new MultipartWriter(wire);       // a fresh random boundary
    MediaType type = writer.contentType("mixed");             // for the Content-Type header
    writer.writePart("text/plain", "<note@example>", "hello".getBytes(StandardCharsets.UTF_8));
    try (InputStream photo = new ByteArrayInputStream(new byte[100_000])) {
      writer.writePart(MimeHeaders.builder()
          .add("Content-Type", "image/jpeg").build(), photo);  // streamed, never held whole
    }
    writer.close();                                           // the closing delimiter
    // end::mime-write[]
    List<String> seen = new ArrayList<>();
    // tag::mime-read[]
    try (MultipartReader reader = MultipartReader.open(new ByteArrayInputStream(
        wire.toByteArray()), type)) {
      for (Part part; (part = reader.nextPart()) != null; ) {
        try (InputStream body = part.decodedBody()) {
          long size = body.transferTo(OutputStream.nullOutputStream());
          seen.add(part.headers().contentType() + " " + size);
        }
      }
    }
    // end::mime-read[]
    assertThat(seen).containsExactly("text/plain 5", "image/jpeg 100000");

    byte[] all = wire.toByteArray();
    List<byte[]> chunks = new ArrayList<>();
    for (int i = 0; i < all.length; i += 1000) {
      chunks.add(java.util.Arrays.copyOfRange(all, i, Math.min(all.length, i + 1000)));
    }
    List<String> events = new ArrayList<>();
    ByteArrayOutputStream bodies = new ByteArrayOutputStream();
    // tag::mime-push[]
    MultipartParser parser = MultipartParser.builder(type.boundary()).build();
    for (byte[] chunk : chunks) {              // as they arrive, of any size, down to one byte
      int pos = 0;
      MultipartParser.Event e;
      do {
        e = parser.next(chunk, pos, chunk.length);
        pos += parser.consumed();
        switch (e) {
          case PART_START -> events.add("part " + parser.headers().contentType());
          case BODY -> bodies.write(parser.bodyArray(), parser.bodyOffset(),
              parser.bodyLength());              // a slice of the chunk itself, no copy
          default -> { }
        }
      } while (e != MultipartParser.Event.NEED_INPUT && e != MultipartParser.Event.END);
    }
    parser.endOfInput();                       // throws if the closing delimiter never came
    // end::mime-push[]
    assertThat(events).containsExactly("part text/plain", "part image/jpeg");
    assertThat(bodies.size()).isEqualTo(100_005);
  }

  @Test
  void soapReadChangeForward() throws Exception {
    byte[] received = ("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\">"
        + "<s:Header><wsa:To xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">urn:in</wsa:To>"
        + "</s:Header><s:Body><q:quote xmlns:q=\"urn:q\"/></s:Body></s:Envelope>")
        .getBytes(StandardCharsets.UTF_8);
    InputStream in = new ByteArrayInputStream(received);
    OutputStream out = new ByteArrayOutputStream();
    // tag::soap-read[]
    SoapCodec codec = SoapCodec.create();                     // make one, share it
    try (MessageBuffer buffer = codec.read(in, "application/soap+xml", received.length)) {
      Message message = buffer.toMessage();
      QName operation = buffer.bodyElement();                 // {urn:q}quote; the Body unparsed
      Message copy = message.copy();                          // copies the header list only
      copy.addressing().setTo("http://backend.example/quotes");
      copy.addHeader(HeaderBlock.text(new QName("urn:trace", "Hop", "t"), "gateway-1"));
      Payload forward = copy.toPayload();                     // the Body as received, spliced
      forward.writeTo(out);
      // end::soap-read[]
      assertThat(operation.getLocalPart()).isEqualTo("quote");
    }
    assertThat(out.toString()).contains("backend.example").contains("gateway-1")
        .contains("<q:quote xmlns:q=\"urn:q\"/>");
  }

  @Test
  void soapComposeAndReadMtom() throws Exception {
    InputStream file = new ByteArrayInputStream(new byte[300_000]);
    long length = 300_000;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // tag::soap-compose[]
    SoapCodec codec = SoapCodec.create();
    Payload upload = codec.payload(SoapVersion.SOAP_12, MtomPolicy.threshold(1024),
        List.of(HeaderBlock.text(new QName("urn:trace", "Hop", "t"), "client-1")), body -> {
          body.writeStartElement("q", "upload", "urn:q");
          body.writeNamespace("q", "urn:q");
          body.writeBinary(file, length, "application/pdf");  // over 1 KiB: attached, streamed
          body.writeEndElement();
        });
    String contentType = upload.contentType();  // multipart/related; type="application/xop+xml"
    upload.writeTo(out);                         // known before a byte is written
    // end::soap-compose[]
    InputStream in = new ByteArrayInputStream(out.toByteArray());
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    // tag::soap-mtom-read[]
    try (MessageBuffer received = codec.read(in, contentType)) {
      XMLStreamReader r = received.toMessage().bodyReader();   // on the Body's start tag
      while (r.hasNext()) {
        r.next();
        if (r instanceof XopReader x && x.isBinary()) {        // an xop:Include
          try (InputStream data = x.binary().openStream()) {
            data.transferTo(sink);                             // the attachment's bytes
          }
        }
      }
    }
    // end::soap-mtom-read[]
    assertThat(contentType).startsWith("multipart/related");
    assertThat(sink.size()).isEqualTo(300_000);
  }

  @Test
  void serverWithAFaultAndOptions() throws Exception {
    // tag::server[]
    Dispatcher quotes = Dispatcher.builder()
        .soapAction("urn:quotes:get", request -> {
          if (request.buffer().bodyElement() == null) {
            throw new SoapFaultException(Fault.of(request.version(),
                request.version().senderFaultCode(), "which quote? the Body is empty"));
          }
          return request.copy().toPayload();                  // an echo, for the example
        })
        .wsdl(Files.readString(wsdlFile()))                    // served at ?wsdl
        .build();
    try (SoapServer server = SoapServer.builder()
        .host("0.0.0.0").port(0)
        .endpoint("/quotes", quotes)
        .options(ServerOptions.builder()
            .maxRequests(512)                                   // then 503, at once
            .requestTimeout(Duration.ofSeconds(20))             // a stalled upload's limit
            .publicAddress(URI.create("https://quotes.example")) // in the served WSDL
            .build())
        .build().start()) {
      // end::server[]
      assertThat(server.port()).isPositive();
    }
  }

  private Path wsdlFile() throws Exception {
    return Files.writeString(dir.resolve("quotes.wsdl"), EchoService.wsdl());
  }

  @Test
  void clientCalls() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
        .build().start()) {
      URI echo = server.uri("/echo");
      // tag::client[]
      try (SoapClient client = SoapClient.builder()
          .timeout(Duration.ofSeconds(30))      // no byte moved for this long: the call fails
          .bufferBytes(1 << 20)                 // up to this a request goes whole, then streams
          .build()) {
        Payload request = EchoService.request(client.codec(), SoapVersion.SOAP_11,
            MtomPolicy.DEFAULT, "report.pdf", ByteString.of(new byte[500_000]));
        try (SoapResponse reply = client.call(echo, request, "")) {
          if (reply.isFault()) {
            throw new IllegalStateException(reply.fault().reason());
          }
          EchoService.Echo e = EchoService.readEcho(reply.message(),
              OutputStream.nullOutputStream());   // the attachment streams from the socket
          // end::client[]
          assertThat(e.length()).isEqualTo(500_000);
        }
        Payload payload = EchoService.request(client.codec(), SoapVersion.SOAP_11,
            MtomPolicy.DEFAULT, "small", ByteString.of(new byte[10]));
        // tag::client-async[]
        SoapRequest call = SoapRequest.builder(echo, payload)
            .soapAction("")
            .header("X-Request-Id", "42")
            .timeout(Duration.ofSeconds(5))         // this call's own, over the client's
            .build();
        CompletableFuture<String> echoed = client.callAsync(call).thenApply(reply -> {
          try (reply) {                             // runs on the event loop: do not block
            return EchoService.readEcho(reply.message()).name();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        // end::client-async[]
        assertThat(echoed.get(10, TimeUnit.SECONDS)).isEqualTo("small");
      }
    }
  }

  @Test
  void brokerFromYaml() throws Exception {
    try (SoapServer backend = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
        .build().start()) {
      String yaml = "timeout: 30s\nroutes:\n  - path: /echo\n    to: " + backend.uri("/echo")
          + "\n";
      // tag::broker[]
      Routes routes = Routes.parse(yaml);   // or Routes.load(Path.of("routes.yaml"))
      try (Broker broker = Broker.builder()
          .port(0)                                  // any free port; 8081 in production
          .routes(routes)
          .options(BrokerOptions.builder()
              .holdBytes(64 * 1024)                 // requests up to this are held; more streams
              .maxExchanges(1024)                   // forwarded at once; then 503
              .requestTimeout(Duration.ofSeconds(30))
              .publicAddress(URI.create("https://gateway.example"))
              .build())
          .build().start()) {
        // end::broker[]
        assertThat(broker.port()).isPositive();
      }
    }
  }
}
