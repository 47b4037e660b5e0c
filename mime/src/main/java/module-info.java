/** Streaming MIME multipart: a push parser, a pull reader, and a writer. */
module dev.ferry.mime {
  requires transitive dev.ferry.bytes;

  exports dev.ferry.mime;
}
