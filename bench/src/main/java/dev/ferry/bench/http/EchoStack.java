package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;

/** One SOAP stack's echo server and client, as the round-trip benchmarks drive them. */
interface EchoStack extends AutoCloseable {
  /** Sends {@code blob} to the echo service; returns the length of the blob echoed back. */
  long echo(ByteString blob) throws Exception;
}
