package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.LdifRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension on an instance field: a server of its own for each test, quick to start. */
class LdapServerExtensionPerTestTest {
  private static final List<Integer> PORTS = new ArrayList<>();

  @RegisterExtension
  final LdapServerExtension ldap = new LdapServerExtension(LdapServer.builder()
      .ldifResource(LdapServerExtensionPerTestTest.class, "example.ldif"));

  @Test
  void first(LdapServer server) {
    PORTS.add(server.port());
    assertEquals(6, server.entryCount());
  }

  @Test
  void second(LdapServer server) {
    PORTS.add(server.port());
    if (PORTS.size() == 2) {
      assertNotEquals(PORTS.get(0), PORTS.get(1));
    }
  }

  @Test
  void startsFromLdifInMilliseconds() throws IOException {
    List<LdifRecord> records = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      records.add(new LdifRecord.Entry("uid=u" + i + ",dc=example", List.of(
          dev.ferry.ldap.Attribute.of("objectClass", "account"),
          dev.ferry.ldap.Attribute.of("uid", "u" + i))));
    }
    LdapServer.builder().records(records).start().close(); // loads classes
    long start = System.nanoTime();
    try (LdapServer s = LdapServer.builder().ldifResource(getClass(), "example.ldif")
        .start()) {
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(6, s.entryCount());
      assertTrue(millis < 1000, "started in " + millis + " ms");
    }
  }
}
