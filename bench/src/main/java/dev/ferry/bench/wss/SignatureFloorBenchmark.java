package dev.ferry.bench.wss;

import dev.ferry.testkit.TestPki;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor of {@link WsSecurityRoundTripBenchmark}'s {@code signed} round trip: the JDK's
 * signature operations it cannot avoid, and nothing else. A signed request and a signed reply
 * are two signatures (client, then service) and two verifications, each over a SignedInfo of
 * about 700 bytes; the digests of the Body and the Timestamp are a few hundred bytes of SHA-256
 * and left out.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SignatureFloorBenchmark {
  /** RSA-2048 (RSA-SHA256) or EC P-256 (ECDSA-SHA256), the keys of the round trip. */
  @Param({"RSA", "EC"})
  public String keyType;

  private final byte[] signedInfo = ("<ds:SignedInfo>" + "x".repeat(680) + "</ds:SignedInfo>")
      .getBytes(StandardCharsets.UTF_8);
  private TestPki.Credential client;
  private TestPki.Credential service;
  private String algorithm;

  @Setup
  public void setUp() {
    client = WssKeys.clientKey(keyType);
    service = WssKeys.serviceKey(keyType);
    algorithm = keyType.equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
  }

  /** Two signatures and two verifications: the cryptography of one signed round trip. */
  @Benchmark
  public boolean signedRoundTrip() throws GeneralSecurityException {
    return signAndVerify(client) & signAndVerify(service);
  }

  private boolean signAndVerify(TestPki.Credential key) throws GeneralSecurityException {
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key.key());
    signer.update(signedInfo);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(key.certificate().getPublicKey());
    verifier.update(signedInfo);
    return verifier.verify(signature);
  }
}
