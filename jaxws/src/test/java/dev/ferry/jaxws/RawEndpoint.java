package dev.ferry.jaxws;

import jakarta.xml.ws.Endpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** An endpoint published for a test, and SOAP 1.1 envelopes written by hand sent to it. */
final class RawEndpoint implements AutoCloseable {
  final String address;
  private final Endpoint endpoint;
  private final HttpClient http = HttpClient.newHttpClient();

  RawEndpoint(String path, Object implementor) {
    this.address = Ports.url(path);
    this.endpoint = Endpoint.publish(address, implementor);
  }

  /** Posts an envelope with {@code header} (a whole Header element, or "") and {@code body}. */
  HttpResponse<String> post(String header, String body) throws IOException,
      InterruptedException {
    String envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + header + "<s:Body>" + body + "</s:Body></s:Envelope>";
    return http.send(HttpRequest.newBuilder(URI.create(address))
        .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
        .POST(HttpRequest.BodyPublishers.ofString(envelope)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** GETs the address with {@code query} ("wsdl", say) and returns the body. */
  String get(String query) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(address + "?" + query)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  @Override
  public void close() {
    http.close();
    endpoint.stop();
  }
}
