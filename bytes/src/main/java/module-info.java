/** Immutable byte strings with zero-copy slices, builders, positional readers and spools. */
module dev.ferry.bytes {
  exports dev.ferry.bytes;
  // Array-level access for Ferry's own codecs (see BytesAccess), the arrays they pool
  // (BufferPool) and the stream helpers of its HTTP ends (Streams), not for applications.
  exports dev.ferry.bytes.internal to dev.ferry.mime, dev.ferry.xop, dev.ferry.asn1,
      dev.ferry.ldap, dev.ferry.ldap.server, dev.ferry.soap, dev.ferry.client, dev.ferry.server;
}
