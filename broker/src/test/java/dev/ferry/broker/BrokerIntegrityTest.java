package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * Integrity under load: 100,000 echo calls through the broker from 8 concurrent clients, the
 * broker rewriting wsa:To and adding a trace header on each. Every echo is checked by length
 * and CRC-32 of the blob and by its name: nothing may come back corrupted or go missing, and
 * every failure must be a SOAP fault. Sizes cross the MTOM threshold and the client's buffering
 * limit, so both inline base64 and attachments, buffered and streamed sends, are exercised.
 */
class BrokerIntegrityTest {
  private static final int CALLS = Integer.getInteger("ferry.integrity.calls", 100_000);
  private static final int CLIENTS = 8;
  private static final SoapCodec CODEC = SoapCodec.create();

  @Test
  void everyBrokeredEchoComesBackWhole() throws Exception {
    try (SoapServer server = SoapServer.builder()
            .endpoint("/echo", EchoService.dispatcher()).build().start();
        Broker broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + server.uri("/echo") + "\n")).build().start();
        SoapClient client = SoapClient.builder().bufferBytes(32 * 1024).build()) {
      AtomicInteger next = new AtomicInteger();
      Tally tally = new Tally();
      try (ExecutorService pool = Executors.newFixedThreadPool(CLIENTS)) {
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          clients.add(pool.submit(() -> {
            for (int i; (i = next.getAndIncrement()) < CALLS; ) {
              call(client, broker, i, tally);
            }
            return null;
          }));
        }
        for (Future<?> f : clients) {
          f.get();
        }
      }
      assertThat(tally.corrupted).hasValue(0);
      assertThat(tally.lost).as("calls lost; the first: %s", tally.firstLoss.get()).hasValue(0);
      assertThat(tally.notFaults).hasValue(0);
      assertThat(tally.ok.get() + tally.faults.get()).isEqualTo(CALLS);
      // on loopback, nothing should even fail
      assertThat(tally.faults).as("faults; the first: %s", tally.firstFault.get()).hasValue(0);
    }
  }

  private static final class Tally {
    final AtomicInteger ok = new AtomicInteger();
    final AtomicInteger corrupted = new AtomicInteger();
    final AtomicInteger lost = new AtomicInteger();
    final AtomicInteger faults = new AtomicInteger();
    final AtomicInteger notFaults = new AtomicInteger();
    final AtomicReference<Throwable> firstLoss = new AtomicReference<>();
    final AtomicReference<String> firstFault = new AtomicReference<>();
  }

  private static void call(SoapClient client, Broker broker, int i, Tally tally) {
    SplittableRandom random = new SplittableRandom(i);
    int size = random.nextInt(10) == 0 ? random.nextInt(200_000) : random.nextInt(8_192);
    byte[] blob = new byte[size];
    random.nextBytes(blob);
    CRC32 sent = new CRC32();
    sent.update(blob);
    MtomPolicy policy = random.nextBoolean() ? MtomPolicy.DEFAULT : MtomPolicy.NEVER;
    SoapVersion version = random.nextBoolean() ? SoapVersion.SOAP_11 : SoapVersion.SOAP_12;
    String name = "call-" + i;
    try (SoapResponse r = client.call(broker.uri("/echo"), CODEC.payload(version, policy,
        List.of(HeaderBlock.text(Addressing.TO, "urn:public:echo")), body -> {
          body.writeStartElement("t", "testMtom", EchoService.NAMESPACE);
          body.writeNamespace("t", EchoService.NAMESPACE);
          body.writeStartElement("t", "name", EchoService.NAMESPACE);
          body.writeCharacters(name);
          body.writeEndElement();
          body.writeStartElement("t", "attachinfo", EchoService.NAMESPACE);
          body.writeBinary(ByteString.of(blob), "application/octet-stream");
          body.writeEndElement();
          body.writeEndElement();
        }), EchoService.SOAP_ACTION)) {
      if (r.isFault()) {
        tally.firstFault.compareAndSet(null, r.fault().reason());
        tally.faults.incrementAndGet();
        return;
      }
      CRC32 received = new CRC32();
      EchoService.Echo echo = EchoService.readEcho(r.message(), new OutputStream() {
        @Override
        public void write(int b) {
          received.update(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
          received.update(b, off, len);
        }
      });
      if (echo.length() != size || received.getValue() != sent.getValue()
          || !echo.name().equals(name)) {
        tally.corrupted.incrementAndGet();
      } else {
        tally.ok.incrementAndGet();
      }
    } catch (IOException e) {
      tally.firstLoss.compareAndSet(null, e);
      tally.lost.incrementAndGet();
      tally.notFaults.incrementAndGet();
    }
  }
}
