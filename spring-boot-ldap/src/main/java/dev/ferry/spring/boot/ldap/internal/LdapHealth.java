package dev.ferry.spring.boot.ldap.internal;

import dev.ferry.ldap.LdapPool;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The pool's health: up when a pooled connection reads the root DSE, down (with the error)
 * when none can; the connections open, idle and leased, and the embedded directory's URL and
 * entries where there is one.
 */
public final class LdapHealth implements HealthIndicator {
  private final LdapPool pool;
  private final Supplier<String> embeddedUrl;
  private final Supplier<Integer> embeddedEntries;

  /** {@code pool} may be null (an embedded directory only), as may the suppliers. */
  public LdapHealth(LdapPool pool, Supplier<String> embeddedUrl,
      Supplier<Integer> embeddedEntries) {
    this.pool = pool;
    this.embeddedUrl = embeddedUrl;
    this.embeddedEntries = embeddedEntries;
  }

  @Override
  public Health health() {
    Health.Builder b = Health.up();
    if (pool != null) {
      try {
        pool.execute(c -> {
          LdapPool.HealthCheck.ROOT_DSE.check(c);
          return null;
        });
      } catch (IOException | RuntimeException e) {
        b = Health.down().withDetail("error", e.getMessage());
      }
      LdapPool.Stats s = pool.stats();
      b.withDetail("pool", Map.of("open", s.open(), "idle", s.idle(),
          "leased", s.leased()));
    }
    if (embeddedUrl != null) {
      b.withDetail("embedded", Map.of("url", embeddedUrl.get(),
          "entries", embeddedEntries.get()));
    }
    return b.build();
  }
}
