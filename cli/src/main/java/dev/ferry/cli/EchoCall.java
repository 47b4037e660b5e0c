package dev.ferry.cli;

import dev.ferry.bytes.ByteSequence;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapHttpException;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.function.UnaryOperator;

/**
 * One testMtom echo call, as the demo and {@code ferry send} make it: the request is written
 * straight to the connection, and the call is timed from its first byte until the echoed blob
 * has been read to the last byte, so the time is what a caller waits for the whole echo.
 */
final class EchoCall {
  /**
   * What one call did.
   *
   * @param nanos from sending to the end of the echoed blob
   * @param requestBytes the request as it went on the wire (HTTP body: envelope and MIME parts)
   * @param status the HTTP status
   * @param contentType the reply's Content-Type
   * @param name the echoed name
   * @param echoedBytes the echoed blob's size
   */
  record Result(long nanos, long requestBytes, int status, String contentType, String name,
      long echoedBytes) {}

  private final SoapClient client;
  private final SoapCodec codec;
  private final SoapVersion version;
  private final String operation;
  private final String soapAction;

  private final UnaryOperator<SoapRequest.Builder> options;

  /** Calls Ferry's echo contract's own operation, testMtom. */
  EchoCall(SoapClient client, SoapCodec codec, SoapVersion version) {
    this(client, codec, version, EchoService.REQUEST.getLocalPart(), EchoService.SOAP_ACTION,
        UnaryOperator.identity());
  }

  /**
   * Calls {@code operation} of the echo contract (see {@link EchoService#OPERATIONS});
   * {@code options} puts a call's credentials and headers on each request.
   */
  EchoCall(SoapClient client, SoapCodec codec, SoapVersion version, String operation,
      String soapAction, UnaryOperator<SoapRequest.Builder> options) {
    this.client = client;
    this.codec = codec;
    this.version = version;
    this.operation = operation;
    this.soapAction = soapAction;
    this.options = options;
  }

  /** Sends {@code blob} as the attachinfo of a testMtom request; {@code sink} gets the echo. */
  Result call(URI uri, MtomPolicy policy, String name, ByteSequence blob, OutputStream sink)
      throws IOException {
    return send(uri, EchoService.request(codec, version, policy, operation, name, blob), sink);
  }

  /** Like {@link #call(URI, MtomPolicy, String, ByteSequence, OutputStream)}, streaming. */
  Result call(URI uri, MtomPolicy policy, String name, InputStream blob, long length,
      OutputStream sink) throws IOException {
    return send(uri, EchoService.request(codec, version, policy, operation, name, blob, length),
        sink);
  }

  private Result send(URI uri, Payload request, OutputStream sink) throws IOException {
    CountedPayload counted = new CountedPayload(request);
    long start = System.nanoTime();
    SoapRequest call = options.apply(SoapRequest.builder(uri, counted)
        .soapAction(soapAction)).build();
    try (SoapResponse r = client.call(call)) {
      if (r.message() == null) {
        throw new PeerException(uri + " answered HTTP " + r.status() + " without a message");
      }
      if (r.isFault()) {
        Fault fault = r.fault();
        throw new PeerException(uri + " answered with a SOAP fault (HTTP " + r.status() + "): "
            + fault.code().getLocalPart() + ": " + fault.reason() + hint(fault));
      }
      EchoService.Echo echo = EchoService.readEcho(r.message(), sink);
      long nanos = System.nanoTime() - start;
      return new Result(nanos, counted.bytes, r.status(), r.contentType(), echo.name(),
          echo.length());
    } catch (SoapHttpException e) {
      throw new PeerException(e.getMessage(), e);
    } catch (ConnectException e) {
      throw new IOException(e.getMessage() + " (is a service listening there?)", e);
    } catch (SocketTimeoutException e) {
      throw new IOException("timed out: " + e.getMessage(), e);
    }
  }

  /** What a Ferry service's limit fault means for someone at the command line. */
  private static String hint(Fault fault) {
    return fault.reason() != null && fault.reason().contains("maxRootBytes")
        ? " (the envelope, inline base64 included, is over the service's limit: send with MTOM,"
            + " or raise it with 'ferry serve --max-root')"
        : "";
  }

  /** The request as the client writes it, counting its bytes on the way to the connection. */
  private static final class CountedPayload implements Payload {
    private final Payload payload;
    long bytes;

    CountedPayload(Payload payload) {
      this.payload = payload;
    }

    @Override
    public String contentType() {
      return payload.contentType();
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      payload.writeTo(new FilterOutputStream(out) {
        @Override
        public void write(int b) throws IOException {
          out.write(b);
          bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
          bytes += len;
        }
      });
    }
  }
}
