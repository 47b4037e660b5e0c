/** Test-only helpers shared by Ferry's modules; never a runtime dependency. */
module dev.ferry.testkit {
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  requires transitive java.xml;
  requires jdk.management;
  requires org.bouncycastle.provider;
  requires org.bouncycastle.pkix;

  exports dev.ferry.testkit;
}
