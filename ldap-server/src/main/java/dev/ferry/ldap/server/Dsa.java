package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.SortControl;
import dev.ferry.ldap.VirtualListView;
import dev.ferry.ldap.ProtocolOp.ExtendedRequest;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * Everything the connections of one server share: the directory and its schema, the rules and
 * limits, the root DN, TLS, and the two entries the server makes up (the root DSE and the
 * subschema subentry, RFC 4512 sections 5.1 and 4.2).
 */
final class Dsa {
  static final String PASSWORD_MODIFY = "1.3.6.1.4.1.4203.1.11.1";

  final Schema schema;
  final LdapServerLimits limits;
  final Directory directory;
  final EntryFactory factory;
  final Updates updates;
  final Access access;
  final List<Dn> suffixes;
  final String rootKey;
  final String rootDn;
  final ByteString rootPassword; // hashed
  final Passwords passwords;
  final boolean readOnly;
  final SSLContext tls;
  final Function<X509Certificate, String> certificateMapper;
  final StoredEntry subschema;
  final String subschemaKey;
  final dev.ferry.ldap.LdapLimits anonymousLimits;
  final dev.ferry.ldap.LdapLimits boundLimits;
  final dev.ferry.ldap.internal.LdapSpans spans;

  Dsa(Schema schema, boolean checking, LdapServerLimits limits, List<Dn> suffixes,
      String rootDn, ByteString rootPassword, AccessRules rules, SSLContext tls,
      Function<X509Certificate, String> certificateMapper, Clock clock,
      PasswordScheme passwordScheme, boolean readOnly, Indexes indexes, Store store,
      dev.ferry.ldap.internal.LdapSpans spans) {
    this.spans = spans;
    this.readOnly = readOnly;
    this.passwords = new Passwords(passwordScheme);
    this.schema = schema;
    this.limits = limits;
    this.anonymousLimits = limits.requestLimits(false);
    this.boundLimits = limits.requestLimits(true);
    this.suffixes = List.copyOf(suffixes);
    this.directory = new Directory(schema, suffixes, indexes, store);
    this.factory = new EntryFactory(schema, checking ? new SchemaChecker(schema) : null, clock,
        passwords);
    this.updates = new Updates(directory, factory, limits.maxEntries());
    this.rootDn = rootDn == null ? null : Dn.parse(rootDn).toString();
    this.rootKey = rootDn == null ? null : schema.normalize(Dn.parse(rootDn));
    this.rootPassword = rootPassword == null ? null : passwords.stored(rootPassword);
    this.access = new Access(rules, schema, rootKey);
    this.tls = tls;
    this.certificateMapper = certificateMapper;
    Dn subschemaDn = Dn.parse(EntryFactory.SUBSCHEMA_DN);
    this.subschemaKey = schema.normalize(subschemaDn);
    List<StoredEntry.Spec> user = List.of(
        spec("objectClass", "top", "subentry", "subschema"), spec("cn", "Subschema"));
    List<StoredEntry.Spec> ops = new ArrayList<>();
    for (Attribute a : schema.subschemaAttributes()) {
      ops.add(new StoredEntry.Spec(schema.type(a.description()), a.description(), a.values()));
    }
    this.subschema = StoredEntry.encode(subschemaDn, user, ops, schema);
  }

  private StoredEntry.Spec spec(String name, String... values) {
    List<ByteString> v = new ArrayList<>();
    for (String s : values) {
      v.add(ByteString.encodeUtf8(s));
    }
    return new StoredEntry.Spec(schema.type(name), name, v);
  }

  /** Builds the root DSE as it is now (its naming contexts follow the entries without one). */
  StoredEntry rootDse() {
    List<String> contexts = new ArrayList<>();
    if (suffixes.isEmpty()) {
      try (Directory.View v = directory.read()) {
        for (StoredEntry e : v.roots()) {
          contexts.add(e.dnText());
        }
      }
    } else {
      for (Dn s : suffixes) {
        contexts.add(s.toString());
      }
    }
    List<String> extensions = new ArrayList<>(List.of(ExtendedRequest.WHO_AM_I, PASSWORD_MODIFY));
    List<StoredEntry.Spec> ops = new ArrayList<>();
    if (!contexts.isEmpty()) {
      ops.add(spec("namingContexts", contexts.toArray(String[]::new)));
    }
    ops.add(spec("subschemaSubentry", EntryFactory.SUBSCHEMA_DN));
    ops.add(spec("supportedLDAPVersion", "3"));
    ops.add(spec("supportedControl", PagedResults.OID, SortControl.OID, VirtualListView.OID));
    if (tls != null) {
      extensions.add(ExtendedRequest.START_TLS);
      ops.add(spec("supportedSASLMechanisms", "EXTERNAL"));
    }
    ops.add(spec("supportedExtension", extensions.toArray(String[]::new)));
    ops.add(spec("supportedFeatures", "1.3.6.1.4.1.4203.1.5.1"));
    ops.add(spec("vendorName", "Ferry"));
    return StoredEntry.encode(Dn.ROOT, List.of(spec("objectClass", "top")), ops, schema);
  }
}
