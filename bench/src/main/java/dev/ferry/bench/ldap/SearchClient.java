package dev.ferry.bench.ldap;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.IOException;

/**
 * The client every LDAP server benchmark uses, UnboundID's (as the table was measured):
 * one connection in synchronous mode, a base-scope search for the whole entry.
 */
final class SearchClient implements AutoCloseable {
  private final LDAPConnection connection;
  private final SearchRequest request;

  SearchClient(int port) throws IOException {
    try {
      connection = connect(port);
      request = new SearchRequest(SearchShapes.DN, SearchScope.BASE, "(objectClass=*)");
    } catch (LDAPException e) {
      throw new IOException(e);
    }
  }

  /** A connection of UnboundID's to loopback in synchronous mode, as every benchmark opens it. */
  static LDAPConnection connect(int port) throws LDAPException {
    return new LDAPConnection(synchronous(), "127.0.0.1", port);
  }

  /** The same, bound as {@code dn}. */
  static LDAPConnection connect(int port, String dn, String password) throws LDAPException {
    return new LDAPConnection(synchronous(), "127.0.0.1", port, dn, password);
  }

  private static LDAPConnectionOptions synchronous() {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setUseSynchronousMode(true);
    return options;
  }

  /** Searches once; returns the entry's attribute count, failing unless there is one entry. */
  int search() throws IOException {
    try {
      SearchResult r = connection.search(request);
      if (r.getEntryCount() != 1) {
        throw new IOException("expected one entry, found " + r.getEntryCount());
      }
      return r.getSearchEntries().get(0).getAttributes().size();
    } catch (LDAPException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void close() {
    connection.close();
  }
}
