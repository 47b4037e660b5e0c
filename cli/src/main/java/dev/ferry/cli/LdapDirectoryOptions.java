package dev.ferry.cli;

import dev.ferry.ldap.server.IndexType;
import dev.ferry.ldap.server.LdapServer;
import dev.ferry.ldap.server.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * What makes a directory, the same for serving it and importing into it: the store, naming
 * contexts, the root DN, the schema and the indexes.
 */
final class LdapDirectoryOptions {
  @Option(names = "--data", paramLabel = "DIR",
      description = "Keep the directory on disk in DIR (LMDB, made if missing) instead of in"
          + " memory.")
  Path data;

  @Option(names = "--max-data-gib", paramLabel = "GIB", defaultValue = "16",
      description = "The most the store in --data may hold, in GiB (address space reserved,"
          + " not disk taken). Default: ${DEFAULT-VALUE}.")
  int maxDataGib;

  @Option(names = "--suffix", paramLabel = "DN",
      description = "A naming context (repeat for more). Default: the top entries of the LDIF.")
  List<String> suffixes = new ArrayList<>();

  @Option(names = "--root-dn", paramLabel = "DN",
      description = "A DN that binds with --root-password and may do everything.")
  String rootDn;

  @Option(names = "--root-password", paramLabel = "PASSWORD",
      description = "The root DN's password.")
  String rootPassword;

  @Option(names = "--schema", paramLabel = "FILE",
      description = "Check adds and modifies against these schema files (repeat), or 'standard'.")
  List<String> schema = new ArrayList<>();

  @Option(names = "--index", paramLabel = "ATTRIBUTE=KINDS",
      description = "Index an attribute, as slapd's olcDbIndex (repeat for more): KINDS is a"
          + " comma-separated list of eq, pres, sub, ord; for example uid=eq or cn=eq,sub."
          + " Anonymous searches no index narrows are refused past 10,000 entries. A store"
          + " opened with other indexes is indexed again.")
  List<String> indexes = new ArrayList<>();

  /** A builder with these options. */
  LdapServer.Builder builder(CommandSpec spec) throws IOException {
    if ((rootDn == null) != (rootPassword == null)) {
      throw new ParameterException(spec.commandLine(),
          "--root-dn and --root-password go together");
    }
    LdapServer.Builder b = LdapServer.builder();
    if (data != null) {
      if (maxDataGib < 1) {
        throw new ParameterException(spec.commandLine(), "--max-data-gib must be 1 or more");
      }
      b.storage(data, (long) maxDataGib << 30);
    }
    for (String s : suffixes) {
      b.suffix(s);
    }
    if (rootDn != null) {
      b.rootDn(rootDn, rootPassword);
    }
    if (!schema.isEmpty()) {
      b.schema(schema());
    }
    for (String index : indexes) {
      index(spec, b, index);
    }
    return b;
  }

  private static void index(CommandSpec spec, LdapServer.Builder b, String option) {
    int eq = option.indexOf('=');
    if (eq < 1 || eq == option.length() - 1) {
      throw new ParameterException(spec.commandLine(), "--index " + option
          + " (expected: ATTRIBUTE=KINDS, such as uid=eq or cn=eq,sub)");
    }
    List<IndexType> kinds = new ArrayList<>();
    for (String kind : option.substring(eq + 1).split(",")) {
      kinds.add(switch (kind.strip()) {
        case "eq" -> IndexType.EQUALITY;
        case "pres" -> IndexType.PRESENCE;
        case "sub" -> IndexType.SUBSTRING;
        case "ord" -> IndexType.ORDERING;
        default -> throw new ParameterException(spec.commandLine(), "--index " + option
            + ": '" + kind + "' (expected: eq, pres, sub or ord)");
      });
    }
    b.index(option.substring(0, eq).strip(), kinds.toArray(IndexType[]::new));
  }

  private Schema schema() throws IOException {
    if (schema.equals(List.of("standard"))) {
      return Schema.standard();
    }
    Schema.Builder s = Schema.builder();
    for (String f : schema) {
      s.load(Path.of(f));
    }
    return s.build();
  }
}
