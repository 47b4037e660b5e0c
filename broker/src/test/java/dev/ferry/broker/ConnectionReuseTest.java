package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A keep-alive connection survives a request whose last bytes (the line end after the closing
 * delimiter, or a chunked body's last chunk) arrive after the package itself could be parsed.
 * The server must read them before it answers: a request left unread when the exchange ends
 * makes Jetty close the connection after a reply that did not say so, and the client's next
 * request on it fails ("header parser received no bytes"), or the close resets the reply.
 */
class ConnectionReuseTest {
  private static final SoapCodec CODEC = SoapCodec.create();

  @ParameterizedTest(name = "chunked: {0}")
  @ValueSource(booleans = {false, true})
  void serverReadsTheWholeRequestBeforeAnswering(boolean chunked) throws Exception {
    try (SoapServer server = SoapServer.builder()
        .endpoint("/echo", EchoService.dispatcher()).build().start()) {
      assertConnectionSurvivesLateEnd(server.uri("/echo"), chunked);
    }
  }

  @ParameterizedTest(name = "chunked: {0}")
  @ValueSource(booleans = {false, true})
  void brokerReadsTheWholeRequestBeforeAnswering(boolean chunked) throws Exception {
    try (SoapServer server = SoapServer.builder()
            .endpoint("/echo", EchoService.dispatcher()).build().start();
        Broker broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + server.uri("/echo") + "\n")).build().start()) {
      assertConnectionSurvivesLateEnd(broker.uri("/echo"), chunked);
    }
  }

  /**
   * Sends a request whose package is complete but for its tail: the line end after the
   * closing delimiter (with a Content-Length), or the last chunk (chunked), which follows after
   * a pause, together with a second request on the same connection.
   */
  private static void assertConnectionSurvivesLateEnd(URI uri, boolean chunked)
      throws Exception {
    Payload payload = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.ALWAYS,
        "late", ByteString.encodeUtf8("blob"));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    payload.writeTo(body);
    byte[] bytes = body.toByteArray();
    assertThat(new String(bytes, bytes.length - 2, 2, StandardCharsets.US_ASCII))
        .isEqualTo("\r\n");
    String contentLength = "Content-Length: " + bytes.length;
    byte[] tail = chunked ? "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)
        : Arrays.copyOfRange(bytes, bytes.length - 2, bytes.length);
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(head(uri, payload.contentType(),
          chunked ? "Transfer-Encoding: chunked" : contentLength));
      if (chunked) {
        out.write((Integer.toHexString(bytes.length) + "\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write(new byte[] {'\r', '\n'});
      } else {
        out.write(bytes, 0, bytes.length - 2);
      }
      out.flush();
      Thread.sleep(300); // the server has all it needs to answer, but not the request's end
      out.write(tail);
      out.write(head(uri, payload.contentType(), contentLength)); // the next request
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      Map<String, String> first = readResponse(in);
      assertThat(first.get(":status")).isEqualTo("200");
      assertThat(first.get(":body")).contains("late");
      assertThat(first.get("connection")).as("Connection header").isNotEqualTo("close");
      Map<String, String> second = readResponse(in);
      assertThat(second.get(":status")).as("second response on the same connection")
          .isEqualTo("200");
      assertThat(second.get(":body")).contains("late");
    }
  }

  private static byte[] head(URI uri, String contentType, String framing) {
    return ("POST " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getAuthority()
        + "\r\nContent-Type: " + contentType + "\r\nSOAPAction: \"" + EchoService.SOAP_ACTION
        + "\"\r\n" + framing + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** Reads one response: lower-case headers, ":status", and ":body" (Latin-1). */
  private static Map<String, String> readResponse(InputStream in) throws IOException {
    Map<String, String> response = new LinkedHashMap<>();
    String status = line(in);
    if (status == null) {
      response.put(":status", "connection closed");
      return response;
    }
    response.put(":status", status.split(" ")[1]);
    for (String h; !(h = line(in)).isEmpty(); ) {
      int colon = h.indexOf(':');
      response.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          h.substring(colon + 1).trim());
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if ("chunked".equalsIgnoreCase(response.get("transfer-encoding"))) {
      for (int size; (size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0; ) {
        body.write(in.readNBytes(size));
        line(in);
      }
      line(in);
    } else {
      body.write(in.readNBytes(Integer.parseInt(response.getOrDefault("content-length", "0"))));
    }
    response.put(":body", body.toString(StandardCharsets.ISO_8859_1));
    return response;
  }

  /** Reads a CRLF-terminated line, or returns null at the end of the stream. */
  private static String line(InputStream in) throws IOException {
    byte[] buf = new byte[8192];
    int n = 0;
    for (int c; (c = in.read()) >= 0; ) {
      if (c == '\n' && n > 0 && buf[n - 1] == '\r') {
        return new String(buf, 0, n - 1, StandardCharsets.ISO_8859_1);
      }
      buf[n++] = (byte) c;
    }
    return n == 0 ? null : new String(Arrays.copyOf(buf, n), StandardCharsets.ISO_8859_1);
  }
}
