package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.interop.BytesDataSource;
import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.soap.SoapCodec;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.cxf.Bus;

/**
 * The calls of the CPU probes ({@link ServerCpuProbe}, {@link ProxyCpuProbe}): the MTOM echo
 * made by the clients users have, {@code ferry} (Ferry's {@code SoapClient}: a Content-Length
 * when the request fits its buffer) or {@code cxf} (CXF's generated port: chunked past 4,000
 * bytes, its default), from several threads for a while, every echo checked whole.
 */
final class ProbeCalls {
  static final List<String> CLIENTS = List.of("ferry", "cxf");

  private ProbeCalls() {}

  /** One client of the echo, usable from several threads. */
  interface Caller {
    void call(ByteString blob) throws Exception;
  }

  /** The caller {@code client} names, calling {@code uri}. */
  static Caller caller(String client, URI uri, SoapClient ferry, SoapCodec codec, Bus bus) {
    if (client.equals("ferry")) {
      return blob -> BrokerOverheadBenchmark.call(ferry, codec, uri, blob);
    }
    if (!client.equals("cxf")) {
      throw new IllegalArgumentException("ferry or cxf, not " + client);
    }
    // a port of its own per thread, as an application with a thread pool would keep them
    ThreadLocal<TestMtomPort> ports = ThreadLocal.withInitial(() -> CxfPeer.client(bus, uri,
        true));
    return blob -> {
      Holder<String> name = new Holder<>("bench");
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(
          blob.toByteArray())));
      ports.get().testMtom(name, data);
      long n;
      try (InputStream in = data.value.getInputStream()) {
        n = in.transferTo(OutputStream.nullOutputStream());
      }
      if (n != blob.size()) {
        throw new IllegalStateException("the echo from " + uri + " is not whole: " + n);
      }
    };
  }

  /** {@code threads} threads calling for {@code seconds}; returns the calls made. */
  static long run(Caller caller, ByteString blob, int threads, int seconds) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong calls = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    List<Exception> failures = new CopyOnWriteArrayList<>();
    for (int i = 0; i < threads; i++) {
      workers.add(Thread.ofPlatform().start(() -> {
        try {
          while (!stop.get()) {
            caller.call(blob);
            calls.incrementAndGet();
          }
        } catch (Exception e) {
          failures.add(e);
        }
      }));
    }
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread t : workers) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("calls failed", failures.get(0));
    }
    return calls.get();
  }

  /** The median of one column of the rounds' rows. */
  static double median(List<double[]> rounds, int column) {
    double[] v = rounds.stream().mapToDouble(r -> r[column]).sorted().toArray();
    return v[v.length / 2];
  }
}
