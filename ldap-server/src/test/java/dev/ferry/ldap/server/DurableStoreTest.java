package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable store keeps what it acknowledged across a restart, indexes it again when the
 * indexes change, refuses a store made under another schema and keys LMDB cannot hold, loads
 * LDIF only into an empty store, and exports what it holds as LDIF that imports back the same.
 */
class DurableStoreTest {
  private static final String BASE = DirectoryGenerator.SUFFIX;

  @TempDir
  Path temp;

  private LdapServer.Builder durable(Path store) {
    return LdapServer.builder().suffix(BASE).rootDn("cn=admin," + BASE, "secret")
        .storage(store, 1L << 30);
  }

  @Test
  void changesSurviveARestart() throws Exception {
    Path store = temp.resolve("store");
    List<LdifRecord.Entry> before;
    try (LdapServer s = IndexTest.indexed(durable(store))
        .ldifResource(DurableStoreTest.class, "example.ldif").start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      c.add("ou=hosts," + BASE, List.of(Attribute.of("objectClass", "organizationalUnit"),
          Attribute.of("ou", "hosts")));
      c.modify(LdapServerTest.BJENSEN, List.of(new Modification(Modification.Type.REPLACE,
          Attribute.of("sn", "Jørgensen"))));
      c.send(new ProtocolOp.ModifyDnRequest("ou=people," + BASE, "ou=staff", true, null),
          List.of()).get(); // moves the subtree
      c.delete("uid=jdoe,ou=staff," + BASE);
      before = s.entries();
    }
    try (LdapServer s = IndexTest.indexed(durable(store)).start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      assertEquals(before, s.entries());
      assertEquals(List.of(), StoreCheck.problems(s.dsa()));
      List<ProtocolOp.SearchResultEntry> found = c.searchAll(SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.parse("(sn=*rgen*)"), "sn"));
      assertEquals(1, found.size());
      assertEquals("uid=bjensen,ou=staff," + BASE, found.get(0).objectName());
    }
  }

  @Test
  void aStoreIsIndexedAgainWhenItsIndexesChange() throws Exception {
    Path store = temp.resolve("store");
    DirectoryGenerator filters = new DirectoryGenerator(77);
    List<LdifRecord.Entry> entries = filters.directory(200);
    try (LdapServer s = durable(store).records(entries).start()) {
      assertEquals(List.of(), StoreCheck.problems(s.dsa()));
    }
    try (LdapServer s = IndexTest.indexed(durable(store)).start()) {
      assertEquals(List.of(), StoreCheck.problems(s.dsa()));
      int narrowed = 0;
      for (int i = 0; i < 100; i++) {
        int n = IndexTest.assertCandidatesCover(s.dsa(), filters.search());
        narrowed += n >= 0 && n < s.entryCount() ? 1 : 0;
      }
      assertTrue(narrowed > 20, narrowed + " of 100 filters narrowed");
    }
    try (LdapServer s = durable(store).start()) { // and without them again
      assertEquals(List.of(), StoreCheck.problems(s.dsa()));
    }
  }

  @Test
  void aStoreMadeUnderAnotherSchemaIsRefused() throws Exception {
    Path store = temp.resolve("store");
    durable(store).start().close();
    IOException e = assertThrows(IOException.class, () -> durable(store)
        .schema(IndexTest.schema()).start());
    assertTrue(e.getMessage().contains("another schema"), e.getMessage());
  }

  @Test
  void aDnTooLongForTheStoreIsRefusedByName() throws Exception {
    try (LdapServer s = durable(temp.resolve("store"))
        .ldifResource(DurableStoreTest.class, "example.ldif").start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      String dn = "cn=" + "x".repeat(600) + "," + BASE;
      LdapException e = assertThrows(LdapException.class, () -> c.add(dn, List.of(
          Attribute.of("objectClass", "device"), Attribute.of("cn", "x".repeat(600)))));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.resultCode());
      assertTrue(e.getMessage().contains("at most 511"), e.getMessage());
      assertEquals(6, s.entryCount());
    }
  }

  @Test
  void ldifIsLoadedOnlyIntoAnEmptyStore() throws Exception {
    Path store = temp.resolve("store");
    try (LdapServer s = durable(store).ldifResource(DurableStoreTest.class, "example.ldif")
        .start(); LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      c.delete("uid=jdoe," + LdapServerTest.PEOPLE);
    }
    try (LdapServer s = durable(store).ldifResource(DurableStoreTest.class, "example.ldif")
        .start()) {
      assertEquals(5, s.entryCount());
    }
  }

  @Test
  void anExportImportsBackTheSame() throws Exception {
    Path store = temp.resolve("store");
    Path ldif = temp.resolve("generated.ldif");
    List<LdifRecord.Entry> entries = new DirectoryGenerator(5).directory(300);
    try (var w = dev.ferry.ldap.LdifWriter.of(Files.newOutputStream(ldif))) {
      for (LdifRecord.Entry e : entries) {
        w.write(e);
      }
    }
    assertEquals(entries.size(), IndexTest.indexed(durable(store)).importLdif(ldif));
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    List<LdifRecord.Entry> served;
    try (LdapServer s = IndexTest.indexed(durable(store)).start()) {
      assertEquals(List.of(), StoreCheck.problems(s.dsa()));
      served = s.entries();
      assertEquals(entries.size(), LdapServer.exportLdif(store, first)); // beside the server
    }
    Path copy = temp.resolve("copy");
    Path exported = temp.resolve("exported.ldif");
    Files.write(exported, first.toByteArray());
    IndexTest.indexed(durable(copy)).importLdif(exported);
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    LdapServer.exportLdif(copy, second);
    assertEquals(first.toString(), second.toString()); // operational attributes kept too
    try (LdapServer s = durable(copy).start()) {
      assertEquals(served, s.entries());
    }
    List<LdifRecord> read = LdifReader.of(new ByteArrayInputStream(first.toByteArray()))
        .readAll();
    assertTrue(((LdifRecord.Entry) read.get(1)).attribute("entryUUID") != null);
  }
}
