package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.sample.EchoService;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.cxf.Bus;

/**
 * Integrity under load through the shipped {@code ferry broker}: {@code calls} MTOM echo calls
 * to CXF's echo service behind it, from {@code clients} threads, each call made by Ferry's
 * client or CXF's generated port (taking turns), every echo compared byte for byte with what
 * was sent and by its name. Sizes are mixed so that every path of the broker is taken: most up
 * to 64 KiB (held; CXF's client sends those past 4,000 bytes chunked, Ferry's with a
 * Content-Length), one in twenty past {@code holdBytes} up to 1.25 MiB (streamed: sized from
 * Ferry's client up to its 1 MiB buffer, chunked past it and from CXF's). Prints the calls that
 * came back whole, corrupted (any byte or the name differs), faults, and lost (an exception
 * that is not a fault), and the run's duration; exits with 1 unless every call came back whole.
 * Not a test: it runs in bench, not in the build.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.ferry.bench.http.BrokerIntegrityRun 100000 8
 * </pre>
 *
 * <p>(calls, client threads; a third argument names the clients, {@code ferry,cxf} by default.)
 */
public final class BrokerIntegrityRun {
  /** The most of a streamed call's blob. */
  private static final int MAX_STREAMED = 1_310_720;

  private BrokerIntegrityRun() {}

  /** What came back. */
  private static final class Tally {
    final AtomicInteger whole = new AtomicInteger();
    final AtomicInteger corrupted = new AtomicInteger();
    final AtomicInteger faults = new AtomicInteger();
    final AtomicInteger lost = new AtomicInteger();
    final AtomicInteger streamed = new AtomicInteger();
    final AtomicReference<String> first = new AtomicReference<>();

    void problem(AtomicInteger counter, String what) {
      counter.incrementAndGet();
      first.compareAndSet(null, what);
    }
  }

  /** One echo call of {@code blob} named {@code name}; returns what came back. */
  private interface Echo {
    Returned call(String name, byte[] blob) throws Exception;
  }

  private record Returned(String name, byte[] blob) {}

  /** Ferry's client got a SOAP fault (CXF's port throws its own exception for one). */
  private static final class Faulted extends Exception {
    Faulted(String reason) {
      super(reason);
    }
  }

  public static void main(String[] args) throws Exception {
    int calls = Integer.parseInt(args[0]);
    int clients = Integer.parseInt(args[1]);
    List<String> names = List.of((args.length > 2 ? args[2] : "ferry,cxf").split(","));
    SoapCodec codec = SoapCodec.create();
    Bus bus = CxfPeer.newBus();
    Tally tally = new Tally();
    long took;
    try (Relays relays = Relays.start("ferry-broker");
        SoapClient client = SoapClient.builder().ioThreads(2).build()) {
      URI uri = relays.uri("ferry-broker");
      List<Echo> echoes = new ArrayList<>();
      for (String name : names) {
        echoes.add(name.equals("cxf") ? cxf(bus, uri) : ferry(client, codec, uri));
      }
      AtomicInteger next = new AtomicInteger();
      long start = System.nanoTime();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < clients; t++) {
        threads.add(Thread.ofPlatform().start(() -> {
          for (int i; (i = next.getAndIncrement()) < calls; ) {
            call(echoes.get(i % echoes.size()), i, tally);
          }
        }));
      }
      for (Thread t : threads) {
        t.join();
      }
      took = System.nanoTime() - start;
    } finally {
      bus.shutdown(true);
    }
    System.out.printf("%d calls (%s, %d threads, %d past holdBytes) in %.1f s: %d whole,"
        + " %d corrupted, %d faults, %d lost%s%n", calls, String.join(" and ", names), clients,
        tally.streamed.get(), took / 1e9, tally.whole.get(), tally.corrupted.get(),
        tally.faults.get(), tally.lost.get(), tally.first.get() == null ? ""
            : "; the first: " + tally.first.get());
    System.exit(tally.whole.get() == calls ? 0 : 1);
  }

  /** Call {@code i}: its size and bytes from a seed of its own, so a failure can be replayed. */
  private static void call(Echo echo, int i, Tally tally) {
    SplittableRandom random = new SplittableRandom(i);
    int pick = random.nextInt(100);
    int size = pick < 80 ? random.nextInt(1, 8_192) : pick < 95 ? random.nextInt(8_192, 65_536)
        : random.nextInt(65_537, MAX_STREAMED);
    if (size > 65_536) {
      tally.streamed.incrementAndGet();
    }
    byte[] blob = new byte[size];
    random.nextBytes(blob);
    String name = "call-" + i;
    try {
      Returned r = echo.call(name, blob);
      if (!name.equals(r.name()) || !Arrays.equals(blob, r.blob())) {
        tally.problem(tally.corrupted, name + " (" + size + " bytes) came back as "
            + r.name() + " with " + r.blob().length + " bytes");
      } else {
        tally.whole.incrementAndGet();
      }
    } catch (Faulted | SOAPFaultException e) {
      tally.problem(tally.faults, name + ": a fault, " + e.getMessage());
    } catch (Exception e) {
      tally.problem(tally.lost, name + " (" + size + " bytes): " + e);
    }
  }

  /** Ferry's client: a Content-Length up to its 1 MiB buffer, chunked past it. */
  private static Echo ferry(SoapClient client, SoapCodec codec, URI uri) {
    return (name, blob) -> {
      try (SoapResponse r = client.call(uri, EchoService.request(codec, SoapVersion.SOAP_11,
          MtomPolicy.ALWAYS, name, ByteString.of(blob)), EchoService.SOAP_ACTION)) {
        if (r.isFault()) {
          throw new Faulted(r.fault().reason());
        }
        EchoService.Echo e = EchoService.readEcho(r.message());
        return new Returned(e.name(), e.attachinfo().toByteArray());
      }
    };
  }

  /** CXF's generated port, one per thread: chunked past 4,000 bytes, its default. */
  private static Echo cxf(Bus bus, URI uri) {
    ThreadLocal<TestMtomPort> ports = ThreadLocal.withInitial(() -> CxfPeer.client(bus, uri,
        true));
    return (name, blob) -> {
      Holder<String> n = new Holder<>(name);
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(blob)));
      ports.get().testMtom(n, data);
      try (InputStream in = data.value.getInputStream()) {
        return new Returned(n.value, in.readAllBytes());
      }
    };
  }
}
