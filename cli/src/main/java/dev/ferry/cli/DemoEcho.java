package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's echo calls: each {@link DemoMeasurement.Cell} as a testMtom call with a generated
 * blob of its size, MTOM or inline base64, to the echo service directly or through the broker.
 */
final class DemoEcho {
  private final EchoCall echo;
  private final URI direct;
  private final URI brokered;
  private final Map<Integer, ByteString> blobs = new HashMap<>();

  DemoEcho(SoapClient client, SoapCodec codec, URI direct, URI brokered) {
    this.echo = new EchoCall(client, codec, SoapVersion.SOAP_11);
    this.direct = direct;
    this.brokered = brokered;
  }

  /**
   * Makes one call of each cell and checks that its echo came back byte for byte; returns each
   * cell's request size on the wire. These first calls also open the connections and load the
   * classes every later call uses.
   */
  Map<DemoMeasurement.Cell, Long> check(List<DemoMeasurement.Cell> cells) throws IOException {
    Map<DemoMeasurement.Cell, Long> requestBytes = new LinkedHashMap<>();
    for (DemoMeasurement.Cell cell : cells) {
      requestBytes.put(cell, check(cell));
    }
    return requestBytes;
  }

  private long check(DemoMeasurement.Cell cell) throws IOException {
    ByteString blob = blob(cell);
    MessageDigest sent = MimeInspect.sha256();
    sent.update(blob.asByteBuffer());
    MessageDigest echoed = MimeInspect.sha256();
    try (OutputStream sink = new DigestOutputStream(OutputStream.nullOutputStream(), echoed)) {
      EchoCall.Result r = echo.call(uri(cell), policy(cell), cell.label(), blob, sink);
      if (!MessageDigest.isEqual(sent.digest(), echoed.digest())
          || !cell.label().equals(r.name())) {
        throw new PeerException(uri(cell) + " did not echo " + cell.label() + " intact: "
            + r.echoedBytes() + " bytes, name '" + r.name() + "'");
      }
      return r.requestBytes();
    }
  }

  /** Makes one call and returns its time, from the first byte sent to the last echoed. */
  long call(DemoMeasurement.Cell cell) throws IOException {
    EchoCall.Result r = echo.call(uri(cell), policy(cell), cell.label(), blob(cell),
        OutputStream.nullOutputStream());
    if (r.echoedBytes() != cell.blobBytes()) {
      throw new PeerException(uri(cell) + " echoed " + r.echoedBytes() + " bytes of "
          + cell.label());
    }
    return r.nanos();
  }

  private ByteString blob(DemoMeasurement.Cell cell) {
    return blobs.computeIfAbsent(cell.blobBytes(), SendCommand::generated);
  }

  private URI uri(DemoMeasurement.Cell cell) {
    return cell.brokered() ? brokered : direct;
  }

  private static MtomPolicy policy(DemoMeasurement.Cell cell) {
    return cell.mtom() ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
  }
}
