package dev.ferry.ldap.server;

import java.nio.file.Path;

/**
 * A server on a durable store, in a process of its own, for tests that kill it: prints its
 * port, then serves until killed. Arguments: the store's folder.
 */
public final class DurableServerMain {
  static final String SUFFIX = "dc=example,dc=com";
  static final String ROOT = "cn=admin," + SUFFIX;

  private DurableServerMain() {}

  static LdapServer.Builder builder(Path store) {
    return LdapServer.builder().suffix(SUFFIX).rootDn(ROOT, "secret").storage(store, 1L << 30)
        .index("uid", IndexType.EQUALITY, IndexType.SUBSTRING)
        .index("uidNumber", IndexType.EQUALITY, IndexType.ORDERING)
        .index("description", IndexType.PRESENCE, IndexType.SUBSTRING)
        .index("objectClass", IndexType.EQUALITY);
  }

  public static void main(String[] args) throws Exception {
    LdapServer server = builder(Path.of(args[0])).start();
    System.out.println(server.port());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
