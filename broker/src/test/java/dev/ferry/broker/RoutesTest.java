package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapException;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The routes file read, its mistakes named by line and key, and routes chosen by content. */
class RoutesTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String S11 = "http://schemas.xmlsoap.org/soap/envelope/";

  private static Message message(String header, String body) throws IOException {
    return CODEC.parse(ByteString.encodeUtf8("<s:Envelope xmlns:s=\"" + S11 + "\""
        + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\" xmlns:t=\"urn:t\">"
        + (header.isEmpty() ? "" : "<s:Header>" + header + "</s:Header>")
        + "<s:Body>" + body + "</s:Body></s:Envelope>")).toMessage();
  }

  private static String chosen(Routes routes, String path, HttpHeaders headers,
      String soapAction, Message m) throws IOException {
    Route r = new RouteTable(routes).select(new RouteTable.Request(path, headers, soapAction, m))
        .route();
    return r == null ? null : r.name();
  }

  private static String chosen(Routes routes, Message m) throws IOException {
    return chosen(routes, "/svc", new DefaultHttpHeaders(), null, m);
  }

  @Test
  void readsRoutesAndMatchesFirstByPathAndAction() throws IOException {
    Routes r = Routes.parse("""
        timeout: 1.5s
        routes:
          - path: /svc
            action: urn:a
            to: http://a.example/one
            audit: /tmp/audit
          - path: /svc
            to: https://b.example:8443/two
        """);
    assertThat(r.timeout()).isEqualTo(Duration.ofMillis(1500));
    Message plain = message("", "<t:op/>");
    HttpHeaders none = new DefaultHttpHeaders();
    assertThat(chosen(r, "/svc", none, "urn:a", plain)).isEqualTo("/svc urn:a");
    assertThat(chosen(r, message("<wsa:Action>urn:a</wsa:Action>", "<t:op/>")))
        .isEqualTo("/svc urn:a");
    assertThat(chosen(r, "/svc", none, "urn:b", plain)).isEqualTo("/svc");
    assertThat(chosen(r, "/other", none, null, plain)).isNull();
    assertThat(r.routes().get(0).audit()).isEqualTo("/tmp/audit");
    assertThat(r.routes().get(1).to().getPort()).isEqualTo(8443);
  }

  @Test
  void choosesByHeadersActionsSoapHeadersAndTheBodyElseAFault() throws IOException {
    Routes r = Routes.parse("""
        routes:
          - path: /svc
            name: acme
            when:
              header: {name: X-Tenant, equals: acme}
            to: http://acme.example/
          - path: /svc
            name: beta tenants
            when:
              header: [{name: X-Tenant, matches: "beta-[0-9]+"}, {name: X-Zone, equals: eu}]
            to: http://beta.example/
          - path: /svc
            name: buy
            when: {soapAction: urn:buy, wsaAction: {matches: "urn:buy.*"}}
            to: http://buy.example/
          - path: /svc
            name: gold
            namespaces: {t: "urn:t"}
            when:
              soapHeader: {name: "t:Tier", equals: gold}
            to: http://gold.example/
          - path: /svc
            name: ibm
            namespaces: {t: "urn:t"}
            when:
              body: "//t:order[1]/t:symbol = 'IBM'"
            to: http://ibm.example/
          - path: /svc
            name: big
            namespaces: {t: "urn:t"}
            when:
              body: ["//t:order/@qty > 1000", "//t:order[@type = 'limit']"]
            to: http://big.example/
          - path: /svc
            name: rest
            fault: {code: Sender, reason: no desk for this order}
        """);
    Message order = message("", "<t:buy><t:order qty=\"5\"><t:symbol>IBM</t:symbol></t:order>"
        + "</t:buy>");
    HttpHeaders h = new DefaultHttpHeaders();
    assertThat(chosen(r, "/svc", h.set("X-Tenant", "acme"), null, order)).isEqualTo("acme");
    assertThat(chosen(r, "/svc", h.set("X-Tenant", "beta-12"), null, order)).isEqualTo("ibm");
    assertThat(chosen(r, "/svc", h.set("X-Zone", "eu"), null, order))
        .isEqualTo("beta tenants");
    Message buy = message("<wsa:Action>urn:buy:v2</wsa:Action>", "<t:op/>");
    assertThat(chosen(r, "/svc", new DefaultHttpHeaders(), "urn:buy", buy)).isEqualTo("buy");
    assertThat(chosen(r, "/svc", new DefaultHttpHeaders(), "urn:sell", buy)).isEqualTo("rest");
    assertThat(chosen(r, message("<t:Tier>gold</t:Tier>", "<t:op/>"))).isEqualTo("gold");
    assertThat(chosen(r, message("<t:Tier>tin</t:Tier>", "<t:op/>"))).isEqualTo("rest");
    assertThat(chosen(r, order)).isEqualTo("ibm");
    // the first order decides for ibm; both body paths must hold for big
    assertThat(chosen(r, message("", "<t:buy><t:order qty=\"5000\" type=\"limit\"><t:symbol>"
        + "SUN</t:symbol></t:order><t:order><t:symbol>IBM</t:symbol></t:order></t:buy>")))
        .isEqualTo("big");
    assertThat(chosen(r, message("", "<t:buy><t:order qty=\"5000\"><t:symbol>SUN</t:symbol>"
        + "</t:order></t:buy>"))).isEqualTo("rest");
    assertThat(r.routes().get(6).fault()).isEqualTo(new RouteFault(true, "no desk for this order"));
  }

  @Test
  void aMalformedBodyWhereAConditionReadsItIsTheCallersFault() throws IOException {
    Routes r = Routes.parse("routes:\n  - path: /svc\n    when: {body: \"//a = 'x'\"}\n"
        + "    to: http://x.example/\n");
    Message broken = CODEC.parse(ByteString.encodeUtf8("<s:Envelope xmlns:s=\"" + S11 + "\">"
        + "<s:Body><b><c></b></s:Body></s:Envelope>")).toMessage();
    assertThatThrownBy(() -> chosen(r, broken)).isInstanceOf(SoapException.class)
        .hasMessageContaining("malformed Body");
  }

  @Test
  void namesWhatIsWrongAndItsLine() {
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: svc\n    to: http://x/\n"))
        .hasMessageContaining("line 2: routes[0].path: must start with /");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    to: ftp://x/\n"))
        .hasMessageContaining("line 3: routes[0].to: expected an http:// or https:// URL");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n"))
        .hasMessageContaining("routes[0].to: missing");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    too: http://x/\n"))
        .hasMessageContaining("line 3: routes[0].too: unknown key \"too\"");
    assertThatThrownBy(() -> Routes.parse("timeout: soon\nroutes: [{path: /s, to: http://x/}]"))
        .hasMessageContaining("line 1: timeout: expected a duration");
    assertThatThrownBy(() -> Routes.parse("routes: [")).hasMessageContaining("malformed YAML");
    assertThatThrownBy(() -> Routes.parse("routes: []")).hasMessageContaining("at least one");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    to: http://x/\n"
        + "    fault: {reason: no}\n")).hasMessageContaining("line 4: routes[0].fault: a route"
            + " forwards (to or group) or answers a fault: one of them");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    group: g\n"))
        .hasMessageContaining("line 3: routes[0].group: no group g (groups: [])");
    assertThatThrownBy(() -> Routes.parse("groups:\n  g:\n    balance: random\n"
        + "    members: [\"http://a/\"]\nroutes:\n  - {path: /s, group: g}\n"))
        .hasMessageContaining("line 3: groups.g.balance: expected failover, round-robin or"
            + " weighted, got random");
    assertThatThrownBy(() -> Routes.parse("groups:\n  g:\n    members:\n"
        + "      - {url: \"http://a/\", weight: 0}\nroutes:\n  - {path: /s, group: g}\n"))
        .hasMessageContaining("line 4: groups.g.members[0].weight: expected a whole number"
            + " from 1 to 100, got 0");
    assertThatThrownBy(() -> Routes.parse("groups:\n  g:\n    members: [\"http://a/\"]\n"
        + "    suspend: {initial: 5s, max: 1s}\nroutes:\n  - {path: /s, group: g}\n"))
        .hasMessageContaining("line 4: groups.g.suspend: a suspension needs 0 < initial <= max");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    fault: {code: Oops,"
        + " reason: no}\n")).hasMessageContaining("routes[0].fault.code: expected Sender");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    to: http://x/\n"
        + "    when:\n      header: {name: X-A, matches: \"[\"}\n"))
        .hasMessageContaining("line 5: routes[0].when.header.matches: not a regular expression");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    to: http://x/\n"
        + "    when:\n      soapHeader: {name: \"q:T\", equals: x}\n"))
        .hasMessageContaining("routes[0].when.soapHeader.name: the prefix q is not declared");
  }

  @Test
  void aBodyPathOutsideTheSubsetIsRefusedAsTheRoutesLoadNamingItAndWhy() {
    assertThatThrownBy(() -> Routes.parse("""
        routes:
          - path: /s
            to: http://x/
            when:
              body: "//order[last()]/symbol = 'IBM'"
        """)).isInstanceOf(IllegalArgumentException.class).hasMessage("line 5:"
            + " routes[0].when.body: body path \"//order[last()]/symbol = 'IBM'\": last()"
            + " needs the number of siblings, known only after the last one; the subset decides"
            + " as it reads (at character 9)");
  }

  @Test
  void readsGroups() {
    Routes r = Routes.parse("""
        groups:
          quotes:
            balance: weighted
            members:
              - http://a.example/q
              - {url: "http://b.example/q", weight: 3}
            suspend: {initial: 2s, factor: 3, max: 1m, failures: 2}
            check: {every: 10s, path: /health, timeout: 1s}
            timeout: 5s
          plain:
            members: ["http://c.example/q"]
            suspend: never
        routes:
          - {path: /q, group: quotes, idempotent: true}
          - {path: /q2, group: quotes}
          - {path: /p, group: plain}
        """);
    BackendGroup g = r.routes().get(0).backends();
    assertThat(g.balance()).isEqualTo(BackendGroup.Balance.WEIGHTED);
    assertThat(g.members()).extracting(BackendGroup.Member::weight).containsExactly(1, 3);
    assertThat(g.suspension()).isEqualTo(new BackendGroup.Suspension(Duration.ofSeconds(2), 3,
        Duration.ofMinutes(1), 2));
    assertThat(g.check()).isEqualTo(new BackendGroup.HealthCheck(Duration.ofSeconds(10),
        "/health", Duration.ofSeconds(1)));
    assertThat(g.timeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(r.routes().get(1).backends()).as("one group, shared").isSameAs(g);
    assertThat(r.routes().get(0).idempotent()).isTrue();
    assertThat(r.routes().get(1).idempotent()).isFalse();
    assertThat(r.routes().get(0).to()).hasToString("http://a.example/q");
    assertThat(r.routes().get(2).backends().suspension()).isNull();
    assertThat(r.routes().get(2).backends().balance()).isEqualTo(BackendGroup.Balance.FAILOVER);
  }

  @Test
  void readsLimits() {
    Routes r = Routes.parse("""
        routes:
          - path: /a
            to: http://a.example/
            limits:
              inFlight: 100
              rate: 50/s
              burst: 80
              perCaller: {inFlight: 4, rate: 600/m}
          - {path: /b, to: "http://b.example/", limits: {rate: 2.5, status: soap}}
          - {path: /c, to: "http://c.example/"}
        """);
    assertThat(r.routes().get(0).limits()).isEqualTo(new RouteLimits(100,
        new RouteLimits.Rate(50, 80), 4, new RouteLimits.Rate(10, 10), false));
    assertThat(r.routes().get(1).limits()).isEqualTo(new RouteLimits(0,
        new RouteLimits.Rate(2.5, 3), 0, null, true));
    assertThat(r.routes().get(2).limits()).isEqualTo(RouteLimits.NONE);
    assertThat(RouteLimiter.describe(2.5)).isEqualTo("2.5 requests a second");
    assertThat(RouteLimiter.describe(1.0 / 60)).isEqualTo("1 request a minute");
    assertThat(RouteLimiter.describe(1.0 / 3600)).isEqualTo("1 request an hour");
  }

  @Test
  void namesWhatIsWrongWithLimits() {
    String head = "routes:\n  - path: /s\n    to: http://x/\n    limits:\n";
    assertThatThrownBy(() -> Routes.parse(head + "      rate: fast\n"))
        .hasMessageContaining("line 5: routes[0].limits.rate: expected requests a second, a"
            + " minute or an hour, such as 50/s, 600/m or 10/h, got fast");
    assertThatThrownBy(() -> Routes.parse(head + "      rate: 0/s\n"))
        .hasMessageContaining("line 5: routes[0].limits.rate: a rate is from one an hour to");
    assertThatThrownBy(() -> Routes.parse(head + "      burst: 5\n"))
        .hasMessageContaining("line 5: routes[0].limits.burst: a burst goes with a rate");
    assertThatThrownBy(() -> Routes.parse(head + "      inFlight: 0\n"))
        .hasMessageContaining("line 5: routes[0].limits.inFlight: expected a whole number");
    assertThatThrownBy(() -> Routes.parse(head + "      perCaller: {rate: 1/s, size: 2}\n"))
        .hasMessageContaining("line 5: routes[0].limits.perCaller.size: unknown key");
    assertThatThrownBy(() -> Routes.parse(head + "      status: 500\n"))
        .hasMessageContaining("line 5: routes[0].limits.status: expected http (503 or 429) or"
            + " soap (the SOAP binding's), got 500");
    assertThatThrownBy(() -> Routes.parse(head + "      rates: 1/s\n"))
        .hasMessageContaining("line 5: routes[0].limits.rates: unknown key");
  }

  @Test
  void routesSharingANameGetNumbers() {
    Routes r = Routes.parse("routes:\n  - {path: /s, to: \"http://a/\"}\n"
        + "  - {path: /s, to: \"http://b/\"}\n");
    assertThat(r.routes()).extracting(Route::name).containsExactly("/s", "/s #2");
  }

  @Test
  void refusesYamlThatWouldBuildObjects() {
    assertThatThrownBy(() -> Routes.parse(
        "routes: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[]]]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tag");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - !thing {path: /s, to: \"http://a/\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 2: the tag !thing is not accepted");
  }
}
