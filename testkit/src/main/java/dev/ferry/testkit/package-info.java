/**
 * Helpers for Ferry's own tests (never a runtime dependency): chunkings of input, throttled
 * streams, shared vectors, seeded blobs, allocation counting and decode-error assertions.
 */
package dev.ferry.testkit;
