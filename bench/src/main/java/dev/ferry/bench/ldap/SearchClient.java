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
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setUseSynchronousMode(true);
    try {
      connection = new LDAPConnection(options, "127.0.0.1", port);
      request = new SearchRequest(SearchShapes.DN, SearchScope.BASE, "(objectClass=*)");
    } catch (LDAPException e) {
      throw new IOException(e);
    }
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
