package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RoutesTest {
  @Test
  void readsRoutesAndMatchesFirstByPathAndAction() {
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
    assertThat(r.match("/svc", "urn:a", null).to().getHost()).isEqualTo("a.example");
    assertThat(r.match("/svc", null, "urn:a").audit()).isEqualTo("/tmp/audit");
    assertThat(r.match("/svc", "urn:b", null).to().getPort()).isEqualTo(8443);
    assertThat(r.match("/other", null, null)).isNull();
  }

  @Test
  void namesWhatIsWrong() {
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: svc\n    to: http://x/\n"))
        .hasMessageContaining("routes[0].path: must start with /");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    to: ftp://x/\n"))
        .hasMessageContaining("routes[0].to: expected an http:// or https:// URL");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n"))
        .hasMessageContaining("routes[0].to: missing");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /s\n    too: http://x/\n"))
        .hasMessageContaining("unknown key \"too\"");
    assertThatThrownBy(() -> Routes.parse("timeout: soon\nroutes: [{path: /s, to: http://x/}]"))
        .hasMessageContaining("timeout: expected a duration");
    assertThatThrownBy(() -> Routes.parse("routes: [")).hasMessageContaining("malformed YAML");
    assertThatThrownBy(() -> Routes.parse("routes: []")).hasMessageContaining("at least one");
  }

  @Test
  void refusesYamlThatWouldBuildObjects() {
    assertThatThrownBy(() -> Routes.parse(
        "routes: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[]]]"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
