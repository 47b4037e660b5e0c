package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.sample.EchoService;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The testMtom echo request (a {@code name} string and a base64Binary {@code attachinfo}),
 * written to memory and read back in this process with the echo service's own writer and
 * reader: what one call costs a sender and a receiver with no network in between. The blob
 * travels inline as base64 or as an MTOM attachment, as the policy says.
 */
final class TestMtomRoundTrip {
  private static final String NAME = "ferry-bench";

  private final SoapCodec codec = SoapCodec.create();
  private final ReusableBuffer buffer = new ReusableBuffer();

  /** Writes the request with {@code blob}, reads it back and returns its size on the wire. */
  int run(MtomPolicy policy, ByteString blob) throws IOException {
    long received = roundTrip(policy, blob, null);
    if (received != blob.size()) {
      throw new IllegalStateException("the round trip lost bytes of a " + blob.size()
          + " byte blob with " + policy);
    }
    return buffer.size();
  }

  /** Like {@link #run}, and also checks every byte that came back (slower: not for timing). */
  void check(MtomPolicy policy, byte[] blob) throws IOException {
    roundTrip(policy, ByteString.of(blob), blob);
  }

  /** Returns the echoed blob's length; with {@code expected}, fails unless it has those bytes. */
  private long roundTrip(MtomPolicy policy, ByteString blob, byte[] expected)
      throws IOException {
    buffer.reset();
    Payload request = EchoService.request(codec, SoapVersion.SOAP_11, policy, NAME, blob);
    request.writeTo(buffer);
    try (MessageBuffer received = codec.read(buffer.asInputStream(), request.contentType())) {
      if (expected == null) {
        return EchoService.readEcho(received.toMessage(), OutputStream.nullOutputStream())
            .length();
      }
      ByteString echoed = EchoService.readEcho(received.toMessage()).attachinfo();
      if (!echoed.contentEquals(expected, 0, expected.length)) {
        throw new IllegalStateException("the round trip changed a " + expected.length
            + " byte blob");
      }
      return echoed.size();
    }
  }

  /** One array written over and over: the timing measures the codec, not buffer growth. */
  private static final class ReusableBuffer extends ByteArrayOutputStream {
    ReusableBuffer() {
      super(64 * 1024);
    }

    InputStream asInputStream() {
      return new ByteArrayInputStream(buf, 0, count);
    }
  }
}
