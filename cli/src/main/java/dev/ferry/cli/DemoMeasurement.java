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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's calls: every blob size, MTOM and base64, direct to the echo service and through
 * the broker. Each combination first makes one call whose echo is checked byte for byte; then
 * warm-up rounds and timed rounds go round all combinations in turn, so that a slow moment of
 * the machine is shared out rather than landing on one combination. Only the timed rounds are
 * kept: the first calls pay for connections and for the JIT compiling both paths.
 */
final class DemoMeasurement {
  /** One combination of blob size, encoding and route. */
  record Cell(int blobBytes, boolean mtom, boolean brokered) {
    String encoding() {
      return mtom ? "MTOM" : "base64";
    }

    String route() {
      return brokered ? "brokered" : "direct";
    }

    String label() {
      return ByteSize.format(blobBytes) + " " + encoding() + " " + route();
    }
  }

  /** A combination's result: latencies of the timed calls and the request's size on the wire. */
  record Row(Cell cell, LatencyStats latency, long requestBytes) {}

  private final EchoCall echo;
  private final URI direct;
  private final URI brokered;
  private final List<Cell> cells = new ArrayList<>();
  private final Map<Integer, ByteString> blobs = new LinkedHashMap<>();
  private final Map<Cell, LatencySamples> samples = new LinkedHashMap<>();
  private final Map<Cell, Long> requestBytes = new LinkedHashMap<>();

  DemoMeasurement(SoapClient client, SoapCodec codec, URI direct, URI brokered,
      List<Integer> sizes) {
    this.echo = new EchoCall(client, codec, SoapVersion.SOAP_11);
    this.direct = direct;
    this.brokered = brokered;
    for (int size : sizes) {
      blobs.put(size, SendCommand.generated(size));
      for (boolean mtom : new boolean[] {true, false}) {
        for (boolean viaBroker : new boolean[] {false, true}) {
          Cell cell = new Cell(size, mtom, viaBroker);
          cells.add(cell);
          samples.put(cell, new LatencySamples());
        }
      }
    }
  }

  /** One call of the plan: which combination, and whether it is checked, warm-up or timed. */
  private record PlannedCall(Cell cell, Phase phase, int repetition, int repetitions) {
    String label() {
      return switch (phase) {
        case CHECK -> "checking " + cell.label();
        case WARM_UP -> "warming up: " + cell.label();
        case TIMED -> cell.label() + ", call " + repetition + " of " + repetitions;
      };
    }
  }

  private enum Phase { CHECK, WARM_UP, TIMED }

  /** The number of calls {@link #run} makes, for a progress bar. */
  int calls(int warmUpRounds, int repetitions) {
    return plan(warmUpRounds, repetitions).size();
  }

  /**
   * Makes every call of the plan; after each, {@code progress} counts it and shows the next,
   * so the bar is full only when the last echo is in.
   */
  List<Row> run(int warmUpRounds, int repetitions, ProgressBar progress) throws IOException {
    List<PlannedCall> plan = plan(warmUpRounds, repetitions);
    for (int i = 0; i < plan.size(); i++) {
      PlannedCall next = plan.get(i);
      switch (next.phase()) {
        case CHECK -> checkedCall(next.cell());
        case WARM_UP -> call(next.cell());
        case TIMED -> samples.get(next.cell()).add(call(next.cell()));
      }
      progress.step(i + 1 < plan.size() ? plan.get(i + 1).label() : "done");
    }
    List<Row> rows = new ArrayList<>();
    for (Cell cell : cells) {
      rows.add(new Row(cell, samples.get(cell).stats(), requestBytes.get(cell)));
    }
    return rows;
  }

  private List<PlannedCall> plan(int warmUpRounds, int repetitions) {
    List<PlannedCall> plan = new ArrayList<>();
    for (Cell cell : cells) {
      plan.add(new PlannedCall(cell, Phase.CHECK, 0, repetitions));
    }
    for (int round = 0; round < warmUpRounds; round++) {
      for (Cell cell : cells) {
        plan.add(new PlannedCall(cell, Phase.WARM_UP, 0, repetitions));
      }
    }
    for (int rep = 1; rep <= repetitions; rep++) {
      for (Cell cell : cells) {
        plan.add(new PlannedCall(cell, Phase.TIMED, rep, repetitions));
      }
    }
    return plan;
  }

  private void checkedCall(Cell cell) throws IOException {
    ByteString blob = blobs.get(cell.blobBytes());
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
      requestBytes.put(cell, r.requestBytes());
    }
  }

  /** Makes one call and returns its time. */
  private long call(Cell cell) throws IOException {
    EchoCall.Result r = echo.call(uri(cell), policy(cell), cell.label(),
        blobs.get(cell.blobBytes()), OutputStream.nullOutputStream());
    if (r.echoedBytes() != cell.blobBytes()) {
      throw new PeerException(uri(cell) + " echoed " + r.echoedBytes() + " bytes of "
          + cell.label());
    }
    return r.nanos();
  }

  private URI uri(Cell cell) {
    return cell.brokered() ? brokered : direct;
  }

  private static MtomPolicy policy(Cell cell) {
    return cell.mtom() ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
  }
}
