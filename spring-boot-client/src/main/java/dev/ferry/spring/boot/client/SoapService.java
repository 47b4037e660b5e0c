package dev.ferry.spring.boot.client;

import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * A {@link SoapClient} bound to one service, as {@code ferry.clients.<name>} configures it: its
 * address, HTTP Basic credentials, WS-Security and timeout go into every request. The bean
 * owns its client (its connections, its TLS) and closes it with the application context.
 *
 * <pre>{@code
 * try (SoapResponse reply = quotes.call(payload, "urn:quote")) {
 *   String body = reply.message().body().utf8();
 * }
 * }</pre>
 */
public final class SoapService implements AutoCloseable {
  private final SoapClient client;
  private final URI address;
  private final String username;
  private final String password;
  private final MessageGuard guard;
  private final Duration timeout;

  private SoapService(SoapClient client, URI address, String username, String password,
      MessageGuard guard, Duration timeout) {
    this.client = client;
    this.address = address;
    this.username = username;
    this.password = password;
    this.guard = guard;
    this.timeout = timeout;
  }

  /**
   * A service at {@code address} called through {@code client}, which it then owns.
   *
   * @param username HTTP Basic user, or null for none
   * @param password HTTP Basic password (null: empty)
   * @param guard the WS-Security of its messages, or null
   * @param timeout how long a call may go without a byte moving
   */
  public static SoapService of(SoapClient client, URI address, String username,
      String password, MessageGuard guard, Duration timeout) {
    return new SoapService(Objects.requireNonNull(client), Objects.requireNonNull(address),
        username, password, guard, Objects.requireNonNull(timeout));
  }

  /** The service's address. */
  public URI address() {
    return address;
  }

  /** The client underneath, for calls to other addresses with its TLS and connections. */
  public SoapClient client() {
    return client;
  }

  /** A request of {@code payload} to the service, with its credentials, guard and timeout. */
  public SoapRequest.Builder request(Payload payload) {
    SoapRequest.Builder b = SoapRequest.builder(address, payload).timeout(timeout);
    if (username != null) {
      b.basicAuth(username, password == null ? "" : password);
    }
    if (guard != null) {
      b.guard(guard);
    }
    return b;
  }

  /**
   * Calls the service; the caller closes the response.
   *
   * @throws IOException if the call fails (see {@link SoapClient#call(SoapRequest)})
   */
  public SoapResponse call(Payload payload, String soapAction) throws IOException {
    return client.call(request(payload).soapAction(soapAction).build());
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "SoapService[" + address + "]";
  }
}
