package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.interop.Slapd;

/**
 * slapd (back-mdb, the schema files Debian ships) and Ferry's server (the same files, indexes
 * of every kind on what generated filters name) holding the same generated directory, with a
 * connection to each bound as the root DN: for differential tests.
 */
final class SlapdTwin implements AutoCloseable {
  final Slapd slapd;
  final LdapServer ferry;
  final Schema schema;
  final LdapConnection toSlapd;
  final LdapConnection toFerry;

  private SlapdTwin(Slapd slapd, LdapServer ferry, Schema schema, LdapConnection toSlapd,
      LdapConnection toFerry) {
    this.slapd = slapd;
    this.ferry = ferry;
    this.schema = schema;
    this.toSlapd = toSlapd;
    this.toFerry = toFerry;
  }

  /** Starts both servers and adds the generator's directory of {@code persons} people to each. */
  static SlapdTwin start(DirectoryGenerator generator, int persons, LdapServerLimits limits)
      throws Exception {
    Slapd slapd = Slapd.start();
    LdapServer ferry = null;
    LdapConnection toSlapd = null;
    try {
      slapd.awaitReady();
      Schema schema = SchemaTest.openLdap("core.schema", "cosine.schema", "nis.schema",
          "inetorgperson.schema");
      ferry = IndexTest.indexed(LdapServer.builder()).suffix(Slapd.SUFFIX)
          .rootDn(Slapd.ADMIN, Slapd.PASSWORD).schema(schema).limits(limits).start();
      toSlapd = slapd.admin();
      LdapConnection toFerry = LdapConnection.connect("127.0.0.1", ferry.port());
      SlapdTwin twin = new SlapdTwin(slapd, ferry, schema, toSlapd, toFerry);
      toFerry.bind(Slapd.ADMIN, Slapd.PASSWORD);
      for (LdifRecord.Entry e : generator.directory(persons)) {
        ProtocolOp add = e.toRequest();
        LdapResult s = SlapdDifferentialTest.result(toSlapd, add);
        assertEquals(ResultCode.SUCCESS, s.resultCode(), e.dn() + ": " + s + " " + add);
        LdapResult r = SlapdDifferentialTest.result(toFerry, add);
        assertEquals(ResultCode.SUCCESS, r.resultCode(), e.dn() + ": " + r);
      }
      return twin;
    } catch (Exception | AssertionError e) {
      for (AutoCloseable c : new AutoCloseable[] {toSlapd, ferry, slapd}) {
        if (c != null) {
          c.close();
        }
      }
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {toSlapd, toFerry, ferry, slapd}) {
      c.close();
    }
  }
}
