package dev.ferry.bench.soap;

import org.openjdk.jmh.infra.Blackhole;

/**
 * Runs each SOAP/MTOM benchmark's implementations once, outside JMH, and checks what they
 * produce, so that a peer that silently does less work cannot win. Run before measuring:
 * {@code java -cp bench/target/benchmarks.jar dev.ferry.bench.soap.BenchChecks}.
 */
public final class BenchChecks {
  private BenchChecks() {}

  public static void main(String[] args) throws Exception {
    Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating "
        + "Blackholes directly is dangerous.");
    for (int size : new int[] {1024, 65536, 1048576}) {
      BrokerCopyBenchmark.Input in = new BrokerCopyBenchmark.Input();
      in.bodyBytes = size;
      in.setUp();
      BrokerCopyBenchmark.Peers p = new BrokerCopyBenchmark.Peers();
      p.setUp();
      BrokerCopyBenchmark.check(in, p, bh);
      System.out.println("broker copy ok: body " + size + ", envelope " + in.envelope.length);
    }
    for (int size : new int[] {0, 1024, 1048576, 12582912}) {
      MtomCodecBenchmark.check(size);
      System.out.println("mtom codecs ok: blob " + size);
    }
    bh.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
  }
}
