/** Streaming MIME multipart: a push parser, a pull reader, and a writer. */
module dev.ferry.mime {
  requires transitive dev.ferry.bytes;
  // The delimiter search uses jdk.incubator.vector when the JVM runs with --add-modules
  // jdk.incubator.vector; the module is read then (DelimiterSearch), not required here, so that
  // no module that requires this one sees the incubator (javac and javadoc warn of it).

  exports dev.ferry.mime;
}
