package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.TestMtomRequest;
import dev.ferry.interop.TestMtomResponse;
import dev.ferry.jaxws.TypedOperation;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import javax.xml.namespace.QName;

/**
 * Ferry's typed API without annotations on both sides of the testMtom echo: a
 * {@link TypedOperation} served by a {@code SoapServer} and called with a {@code SoapClient},
 * on the interop tests' JAXB beans of the request and response (no JAX-WS annotation).
 * The server reads the blob whole and answers with a copy, as the JAX-WS implementation does.
 */
final class FerryTypedEcho implements EchoStack {
  static final String NS = "http://cxf.apache.org/mime/types";

  private final SoapServer server;
  private final SoapClient client;
  private final TypedOperation<TestMtomRequest, TestMtomResponse> op;
  private final URI uri;
  private ByteString lastBlob;
  private byte[] lastBytes;

  FerryTypedEcho(boolean mtom) throws IOException {
    AccessLog.quiet();
    op = TypedOperation.builder(new QName(NS, "testMtom"), TestMtomRequest.class,
        new QName(NS, "testMtomResponse"), TestMtomResponse.class).soapAction("urn:testMtom")
        .codec(FerryJaxWsEcho.CODEC).mtom(mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER).build();
    server = SoapServer.builder().codec(FerryJaxWsEcho.CODEC).endpoint("/echo",
        op.addTo(Dispatcher.builder(), FerryTypedEcho::copy).build()).build().start();
    client = SoapClient.builder().codec(FerryJaxWsEcho.CODEC).build();
    uri = server.uri("/echo");
  }

  private static TestMtomResponse copy(TestMtomRequest request) throws IOException {
    byte[] bytes;
    try (InputStream in = request.getAttachinfo().getInputStream()) {
      bytes = in.readAllBytes();
    }
    TestMtomResponse reply = new TestMtomResponse();
    reply.setName(request.getName());
    reply.setAttachinfo(new DataHandler(new BytesDataSource(bytes)));
    return reply;
  }

  @Override
  public long echo(ByteString blob) throws Exception {
    if (blob != lastBlob) {
      lastBlob = blob;
      lastBytes = blob.toByteArray();
    }
    TestMtomRequest request = new TestMtomRequest();
    request.setName("bench");
    request.setAttachinfo(new DataHandler(new BytesDataSource(lastBytes)));
    return PortEcho.drain(op.call(client, uri, request).getAttachinfo());
  }

  @Override
  public void close() throws IOException {
    client.close();
    server.close();
  }
}
