package dev.ferry.ldap.server;

import dev.ferry.ldap.Dn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Who may read and change what, by bind DN and subtree. The root DN ({@link
 * LdapServer.Builder#rootDn}) may do everything, and every bound client may change its own
 * password (password modify, or a modify of its {@code userPassword} alone). Without rules,
 * anonymous clients may read (unless {@link Builder#anonymousRead} turns that off) and any
 * bound client may read and write: convenient in tests, not for a directory people share.
 * With rules, a client may do only what a rule grants it, and anonymous clients read
 * everything if anonymous read is on. {@link #parse} reads rules from text.
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

  /** Who a rule is for. */
  enum Binders { ANONYMOUS, BOUND, DN, SUBTREE }

  /** One grant: binders (anonymous clients, any bound DN, one DN, or a subtree of DNs), a
   * subtree, a level. */
  record Rule(Binders binders, String binder, String subtree, Level level) {}

  private AccessRules(Builder b) {
    this.anonymousRead = b.anonymousRead;
    this.rules = List.copyOf(b.rules);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Parses rules written one grant a line, {@code to SUBTREE by WHO LEVEL} (SUBTREE a DN or
   * {@code *}; WHO {@code anonymous}, {@code users}, {@code dn=DN} or {@code dn.subtree=DN};
   * LEVEL {@code read}, {@code write} or {@code manage}); {@code #} starts a comment line.
   * Only what a line grants is allowed, to anonymous clients too.
   *
   * <pre>
   * to * by anonymous read
   * to ou=people,dc=example,dc=com by users read
   * to ou=people,dc=example,dc=com by dn.subtree=ou=admins,dc=example,dc=com manage
   * </pre>
   *
   * @throws IllegalArgumentException naming the line and what it expected
   */
  public static AccessRules parse(String text) {
    return AccessFile.parse(text);
  }

  /** Reads {@link #parse rules} from a UTF-8 file. */
  public static AccessRules read(Path file) throws IOException {
    return parse(Files.readString(file));
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
      rules.add(new Rule(Binders.DN, checked(bindDn), checked(subtree), level(level)));
      return this;
    }

    /** Lets clients bound as any DN in {@code bindSubtree} reach entries in {@code subtree}. */
    public Builder allowSubtree(String bindSubtree, String subtree, Level level) {
      rules.add(new Rule(Binders.SUBTREE, checked(bindSubtree), checked(subtree),
          level(level)));
      return this;
    }

    /** Lets every bound client reach entries in {@code subtree} ("" for all). */
    public Builder allowBoundUsers(String subtree, Level level) {
      rules.add(new Rule(Binders.BOUND, null, checked(subtree), level(level)));
      return this;
    }

    /**
     * Lets clients that have not bound read entries in {@code subtree} (beside {@link
     * #anonymousRead}, which lets them read everything). They may never write.
     */
    public Builder allowAnonymous(String subtree) {
      rules.add(new Rule(Binders.ANONYMOUS, null, checked(subtree), Level.READ));
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
