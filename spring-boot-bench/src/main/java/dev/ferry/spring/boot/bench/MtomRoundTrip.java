package dev.ferry.spring.boot.bench;

import dev.ferry.spring.boot.bench.services.BytesSource;
import dev.ferry.spring.boot.bench.services.TestMtomPort;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import javax.xml.namespace.QName;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;

/**
 * When {@code bench.mtom-bytes} is set: calls the application's own testMtom endpoint through
 * a typed port of the JAX-WS runtime on the class path, with MTOM, for {@code bench.warmup}
 * seconds, then for {@code bench.rounds} rounds of {@code bench.round} seconds, and prints one
 * line {@code mtom-round-trip bytes=N us-per-call=a,b,...} (the mean of each round).
 */
final class MtomRoundTrip implements ApplicationRunner {
  static final QName SERVICE = new QName(TestMtomPort.NS, "TestMtomService");
  static final QName PORT = new QName(TestMtomPort.NS, "TestMtomPort");

  private final Environment environment;

  MtomRoundTrip(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void run(ApplicationArguments args) throws IOException {
    int size = environment.getProperty("bench.mtom-bytes", Integer.class, 0);
    if (size <= 0) {
      return;
    }
    Service service = Service.create(SERVICE);
    service.addPort(PORT, SOAPBinding.SOAP11HTTP_BINDING, "http://127.0.0.1:"
        + environment.getProperty("local.server.port") + environment.getProperty("bench.path")
        + "/TestMtom");
    TestMtomPort port = service.getPort(PORT, TestMtomPort.class, new MTOMFeature());
    byte[] blob = new byte[size];
    new SplittableRandom(size).nextBytes(blob);
    if (!Arrays.equals(blob, call(port, blob))) {
      throw new IllegalStateException("testMtom answered with other bytes");
    }
    loop(port, blob, seconds("bench.warmup", 3));
    int rounds = environment.getProperty("bench.rounds", Integer.class, 5);
    StringBuilder line = new StringBuilder("mtom-round-trip bytes=" + size + " us-per-call=");
    for (int i = 0; i < rounds; i++) {
      line.append(i == 0 ? "" : ",").append(loop(port, blob, seconds("bench.round", 2)));
    }
    System.out.println(line);
  }

  private long seconds(String property, int fallback) {
    return environment.getProperty(property, Integer.class, fallback) * 1_000_000_000L;
  }

  /** Calls for {@code nanos}; the mean microseconds per call. */
  private static long loop(TestMtomPort port, byte[] blob, long nanos) throws IOException {
    long start = System.nanoTime();
    long calls = 0;
    long elapsed;
    do {
      call(port, blob);
      calls++;
      elapsed = System.nanoTime() - start;
    } while (elapsed < nanos);
    return elapsed / calls / 1000;
  }

  private static byte[] call(TestMtomPort port, byte[] blob) throws IOException {
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(blob)));
    port.testMtom(new Holder<>("bench"), data);
    try (InputStream in = data.value.getInputStream()) {
      return in.readAllBytes();
    }
  }
}
