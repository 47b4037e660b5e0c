/** Immutable byte strings with zero-copy slices, builders, positional readers and spools. */
module dev.ferry.bytes {
  exports dev.ferry.bytes;
}
