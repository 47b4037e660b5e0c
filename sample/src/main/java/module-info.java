/** The testMtom echo service: a sample for tests, the demo and the benchmarks. */
module dev.ferry.sample {
  requires transitive dev.ferry.server;

  exports dev.ferry.sample;
}
