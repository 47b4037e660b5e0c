package dev.ferry.ldap.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.SearchScope;
import dev.ferry.testkit.OtlpReceiver;
import dev.ferry.testkit.OtlpReceiver.ReceivedSpan;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ferry's LDAP client and directory server traced through one SDK exporting over OTLP: a
 * client span per operation under the caller's span, a server span per operation served,
 * named {@code LDAP <operation>} with the DN, the result code and a search's entry count.
 */
class LdapTracingTest {
  private static final String LDIF = """
      dn: dc=example,dc=com
      objectClass: domain
      dc: example

      dn: uid=a,dc=example,dc=com
      objectClass: account
      uid: a

      dn: uid=b,dc=example,dc=com
      objectClass: account
      uid: b
      """;

  @Test
  void everyOperationIsASpanOnBothSides() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start();
        OpenTelemetrySdk sdk = receiver.sdk("ldap-test")) {
      try (LdapServer server = LdapServer.builder().suffix("dc=example,dc=com")
          .rootDn("cn=admin,dc=example,dc=com", "secret").ldif(LDIF).openTelemetry(sdk)
          .start();
          LdapConnection c = LdapConnection.connect(server.host(), server.port(),
              LdapOptions.builder().openTelemetry(sdk).build())) {
        Span root = sdk.getTracer("test").spanBuilder("test").startSpan();
        try (Scope s = root.makeCurrent()) {
          c.bind("cn=admin,dc=example,dc=com", "secret");
          assertThat(c.searchAll(SearchRequest.of("dc=example,dc=com",
              SearchScope.WHOLE_SUBTREE, Filter.parse("(objectClass=account)")))).hasSize(2);
          assertThatThrownBy(() -> c.add("uid=c,ou=none,dc=example,dc=com",
              List.of(Attribute.of("objectClass", "account"), Attribute.of("uid", "c"))))
              .isInstanceOf(LdapException.class);
        } finally {
          root.end();
        }
      }
      sdk.getSdkTracerProvider().forceFlush();
      List<ReceivedSpan> spans = receiver.awaitSpans(7, Duration.ofSeconds(10));
      ReceivedSpan test = spans.stream().filter(x -> x.name().equals("test")).findFirst()
          .orElseThrow();
      ReceivedSpan search = one(spans, "CLIENT", "search");
      assertThat(search.parentSpanId()).isEqualTo(test.spanId());
      assertThat(search.name()).isEqualTo("LDAP search");
      assertThat(search.attributes()).containsEntry("ldap.dn", "dc=example,dc=com")
          .containsEntry("ldap.result_code", 0L).containsEntry("ldap.search.entries", 2L)
          .containsEntry("network.protocol.name", "ldap");
      ReceivedSpan served = one(spans, "SERVER", "search");
      assertThat(served.attributes()).containsEntry("ldap.search.entries", 2L)
          .containsEntry("client.address", "127.0.0.1");
      assertThat(served.scope()).isEqualTo("dev.ferry.ldap.server");
      ReceivedSpan bind = one(spans, "CLIENT", "bind");
      assertThat(bind.attributes()).containsEntry("ldap.dn", "cn=admin,dc=example,dc=com");
      assertThat(bind.error()).isFalse();
      ReceivedSpan add = one(spans, "CLIENT", "add");
      assertThat(add.error()).isTrue(); // noSuchObject: the call failed
      assertThat(add.attributes()).containsEntry("ldap.result_code", 32L);
      assertThat(one(spans, "SERVER", "add").error()).isFalse(); // the server did its job
      assertThat(spans).allSatisfy(x -> assertThat(x.attributes().toString())
          .doesNotContain("secret"));
    }
  }

  private static ReceivedSpan one(List<ReceivedSpan> spans, String kind, String operation) {
    return spans.stream().filter(x -> x.kind().equals(kind)
        && operation.equals(x.attribute("ldap.operation"))).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + operation + " in " + spans));
  }
}
