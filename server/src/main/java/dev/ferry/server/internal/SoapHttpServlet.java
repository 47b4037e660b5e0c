package dev.ferry.server.internal;

import dev.ferry.bytes.DecodeException;
import dev.ferry.mime.MediaType;
import dev.ferry.server.Metrics;
import dev.ferry.soap.Fault;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;

/**
 * What the server and the broker do alike with a POST: count it (metrics, access log), refuse a
 * media type that is not SOAP (415), read the root part (a fault if it cannot be read), hand
 * the message to {@link #handle}, and release the request's attachments afterwards.
 */
public abstract class SoapHttpServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  public final transient SoapCodec codec;
  public final transient Metrics metrics;

  public SoapHttpServlet(SoapCodec codec, Metrics metrics) {
    this.codec = codec;
    this.metrics = metrics;
  }

  /** What became of one exchange, for the metrics and the access log. */
  public record Outcome(int status, String note) {}

  /** Answers a request whose root part was read; the buffer is closed afterwards. */
  public abstract Outcome handle(HttpServletRequest request, HttpServletResponse response,
      MediaType type, MessageBuffer buffer, InputStream in, CountingOutputStream out)
      throws IOException;

  /** The name the request is counted under in the metrics. */
  public abstract String meterName(HttpServletRequest request);

  @Override
  protected final void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    long start = System.nanoTime();
    metrics.started();
    CountingInputStream in = new CountingInputStream(request.getInputStream(),
        metrics::requestBytes);
    CountingOutputStream out = new CountingOutputStream(response.getOutputStream());
    Outcome outcome = null;
    try {
      outcome = intake(request, response, in, out);
    } finally {
      if (outcome == null) {
        outcome = new Outcome(response.getStatus(), "aborted mid-reply");
      }
      long nanos = System.nanoTime() - start;
      metrics.finished(meterName(request), outcome.status(), nanos, in.count(), out.count());
      HttpSoap.log(request, outcome.status(), in.count(), out.count(), nanos, outcome.note());
    }
  }

  private Outcome intake(HttpServletRequest request, HttpServletResponse response,
      CountingInputStream in, CountingOutputStream out) throws IOException {
    String contentType = request.getContentType();
    MediaType type = HttpSoap.mediaType(contentType);
    SoapVersion version = type == null ? null : SoapBinding.version(type);
    if (version == null) {
      response.sendError(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
          "expected text/xml (SOAP 1.1), application/soap+xml (SOAP 1.2) or multipart/related,"
          + " got " + contentType);
      return new Outcome(415, null);
    }
    MessageBuffer buffer;
    try {
      buffer = codec.read(in, contentType);
    } catch (DecodeException e) {
      return fault(response, FaultReplies.forUnreadableRequest(version, e));
    }
    try {
      return handle(request, response, type, buffer, in, out);
    } finally {
      buffer.close();
    }
  }

  /** Answers with {@code fault}. */
  public Outcome fault(HttpServletResponse response, Fault fault) throws IOException {
    FaultReplies.write(response, codec, fault);
    return new Outcome(FaultReplies.status(fault), "fault: " + fault.reason());
  }

  /** How much may follow a request's message: the codec's MIME epilogue limit. */
  public int epilogueBytes() {
    return codec.limits().xop().mime().maxEpilogueBytes();
  }
}
