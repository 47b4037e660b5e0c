/** Test-only helpers shared by Ferry's modules; never a runtime dependency. */
module dev.ferry.testkit {
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  requires transitive java.xml;
  requires jdk.management;
  requires transitive java.logging;
  requires org.bouncycastle.provider;
  requires org.bouncycastle.pkix;
  requires jdk.httpserver;
  requires transitive io.opentelemetry.sdk;
  requires io.opentelemetry.sdk.trace;
  requires io.opentelemetry.sdk.common;
  requires io.opentelemetry.api;
  requires io.opentelemetry.context;
  requires io.opentelemetry.exporter.otlp;
  requires io.opentelemetry.proto;
  requires com.google.protobuf;

  exports dev.ferry.testkit;
}
