package dev.ferry.ldap.server;

import dev.ferry.ldap.Dn;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Who may read and change what, by bind DN and subtree. The root DN ({@link
 * LdapServer.Builder#rootDn}) may do everything. Without rules, anonymous clients may read
 * (unless {@link Builder#anonymousRead} turns that off) and any bound client may read and
 * write; with rules, a bound client may do only what a rule grants it, and anonymous clients
 * only read, if anonymous read is on.
 *
 * <pre>{@code
 * AccessRules rules = AccessRules.builder()
 *     .anonymousRead(false)
 *     .allowBoundUsers("dc=example,dc=com", AccessRules.Level.READ)
 *     .allowSubtree("ou=admins,dc=example,dc=com", "ou=people,dc=example,dc=com",
 *         AccessRules.Level.WRITE)
 *     .build();
 * }</pre>
 *
 * <p>Passwords are secret: only the root DN and clients a rule grants {@link Level#MANAGE}
 * see them, with or without rules.
 *
 * <p>What a client may not read is not there for it: a search skips it, and every operation
 * on it (search, compare, modify, modify DN, delete, add below it, password modify) answers
 * exactly as for a missing entry: noSuchObject, with a matched DN no nearer than the nearest
 * entry the client may read, and the same message. Only on an entry it may read does a change
 * it may not make answer insufficientAccessRights.
 */
public final class AccessRules {
  /**
   * What a rule grants; each includes those before it. MANAGE adds the passwords ({@code
   * userPassword}, {@code authPassword}): reading their (hashed) values, matching them in
   * filters and comparing them. No other client, bound or not, sees them; only binds check
   * them, and the root DN manages everything.
   */
  public enum Level { READ, WRITE, MANAGE }

  /** The defaults: anonymous read, and every bound client reads and writes. */
  public static final AccessRules DEFAULTS = builder().build();

  final boolean anonymousRead;
  final List<Rule> rules;

  /** One grant: binders (one DN, a subtree of DNs, or any bound DN), a subtree, a level. */
  record Rule(String binder, boolean binderSubtree, String subtree, Level level) {}

  private AccessRules(Builder b) {
    this.anonymousRead = b.anonymousRead;
    this.rules = List.copyOf(b.rules);
  }

  public static Builder builder() {
    return new Builder();
  }

  public boolean anonymousRead() {
    return anonymousRead;
  }

  @Override
  public String toString() {
    return "AccessRules[anonymousRead=" + anonymousRead + ", rules=" + rules + "]";
  }

  /** Builds {@link AccessRules}; DNs are checked here and matched under the server's schema. */
  public static final class Builder {
    private boolean anonymousRead = true;
    private final List<Rule> rules = new ArrayList<>();

    private Builder() {}

    /** Lets anonymous clients read (the default) or not. */
    public Builder anonymousRead(boolean anonymousRead) {
      this.anonymousRead = anonymousRead;
      return this;
    }

    /** Lets the client bound as {@code bindDn} read or write entries in {@code subtree}. */
    public Builder allow(String bindDn, String subtree, Level level) {
      rules.add(new Rule(checked(bindDn), false, checked(subtree), level(level)));
      return this;
    }

    /** Lets clients bound as any DN in {@code bindSubtree} reach entries in {@code subtree}. */
    public Builder allowSubtree(String bindSubtree, String subtree, Level level) {
      rules.add(new Rule(checked(bindSubtree), true, checked(subtree), level(level)));
      return this;
    }

    /** Lets every bound client reach entries in {@code subtree}. */
    public Builder allowBoundUsers(String subtree, Level level) {
      rules.add(new Rule(null, true, checked(subtree), level(level)));
      return this;
    }

    public AccessRules build() {
      return new AccessRules(this);
    }

    private static String checked(String dn) {
      Dn.parse(Objects.requireNonNull(dn, "dn"));
      return dn;
    }

    private static Level level(Level level) {
      return Objects.requireNonNull(level, "level");
    }
  }
}
