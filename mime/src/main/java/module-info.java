/** Streaming MIME multipart: a push parser, a pull reader, and a writer. */
module dev.ferry.mime {
  requires transitive dev.ferry.bytes;
  // optional: the delimiter search uses it when the JVM runs with --add-modules jdk.incubator.vector
  requires static jdk.incubator.vector;

  exports dev.ferry.mime;
}
