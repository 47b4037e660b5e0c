/**
 * The testMtom echo service, a sample: what Ferry's tests, demo and benchmarks call, and what
 * a first service on Ferry looks like. Start with {@link dev.ferry.sample.EchoService}.
 */
package dev.ferry.sample;
