/** Streaming ASN.1 BER and DER: a pull reader that returns slices, a writer that copies once. */
module dev.ferry.asn1 {
  requires transitive dev.ferry.bytes;

  exports dev.ferry.asn1;
}
