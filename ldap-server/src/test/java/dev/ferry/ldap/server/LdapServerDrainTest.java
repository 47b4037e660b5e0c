package dev.ferry.ldap.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The LDAP server drains as the HTTP ones do: a search in flight (held up by a client that reads
 * slowly) finishes whole; idle connections get a notice of disconnection; new connections are
 * refused once it stopped listening; a search still running at the drain timeout is cut, and
 * its client learns it from an error, not from a result that looks whole.
 */
class LdapServerDrainTest {
  private static final int ENTRIES = 20_000;

  @Test
  void aSearchInFlightFinishesWhileIdleConnectionsAreClosed() throws Exception {
    LdapServer server = server(Duration.ofSeconds(20));
    String host = server.host();
    int port = server.port();
    try (LdapConnection reading = LdapConnection.connect(host, port);
        LdapConnection idle = LdapConnection.connect(host, port)) {
      assertThat(idle.whoAmI()).isEmpty();
      SearchResults results = reading.search(everything());
      results.hasNext(); // the search runs; its client now stops reading for a while
      CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close,
          r -> Thread.ofVirtual().start(r));
      await(() -> !idle.isOpen());
      assertThatThrownBy(() -> new Socket(host, port).close())
          .isInstanceOf(IOException.class);
      assertThat(closing).isNotDone();
      int n = 0;
      while (results.hasNext()) {
        results.next();
        n++;
      }
      assertThat(n).isEqualTo(ENTRIES + 1); // the suffix and every entry under it
      assertThat(results.done().result().resultCode()).isEqualTo(ResultCode.SUCCESS);
      closing.get(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aSearchStillRunningAtTheDeadlineIsCutWithAnError() throws Exception {
    LdapServer server = server(Duration.ofMillis(300));
    try (LdapConnection reading = LdapConnection.connect(server.host(), server.port())) {
      SearchResults results = reading.search(everything());
      results.hasNext();
      long start = System.nanoTime();
      server.close();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      assertThatThrownBy(() -> {
        while (results.hasNext()) {
          results.next();
        }
      }).isInstanceOf(LdapException.class);
    }
  }

  private static LdapServer server(Duration drainTimeout) throws IOException {
    StringBuilder ldif = new StringBuilder("dn: dc=example,dc=com\nobjectClass: domain\n"
        + "dc: example\n");
    String filler = "x".repeat(900);
    for (int i = 0; i < ENTRIES; i++) {
      ldif.append("\ndn: uid=u").append(i).append(",dc=example,dc=com\nobjectClass: account\n")
          .append("uid: u").append(i).append("\ndescription: ").append(filler).append('\n');
    }
    return LdapServer.builder().suffix("dc=example,dc=com").ldif(ldif.toString())
        .limits(LdapServerLimits.builder().maxSearchResults(ENTRIES + 1)
            .maxUnindexedEntriesAnonymous(ENTRIES + 1).build())
        .drain(Duration.ZERO, drainTimeout).start();
  }

  private static SearchRequest everything() {
    return SearchRequest.of("dc=example,dc=com", SearchScope.WHOLE_SUBTREE,
        Filter.parse("(objectClass=*)"));
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s");
      }
      Thread.sleep(10);
    }
  }
}
