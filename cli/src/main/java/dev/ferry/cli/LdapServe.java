package dev.ferry.cli;

import dev.ferry.ldap.server.AccessRules;
import dev.ferry.ldap.server.LdapServer;
import dev.ferry.ldap.server.Schema;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry ldap serve}: Ferry's in-memory LDAP server, until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve an in-memory LDAP directory loaded from LDIF files until interrupted"
        + " with Ctrl-C. Changes clients make are kept in memory only.",
        "", "Without --schema any attribute and object class is accepted (matching by the"
        + " standard schema where it knows the attribute); with it, adds and modifies are"
        + " checked against the schema files given (OpenLDAP .schema or LDIF, loaded on Ferry's"
        + " system schema, in order) or, for --schema standard, Ferry's standard schema."},
    footer = {"", "Examples:",
        "  ferry ldap serve --ldif data.ldif --port 1389",
        "  ferry ldap serve --ldif data.ldif --suffix dc=example,dc=com \\",
        "      --root-dn cn=admin,dc=example,dc=com --root-password secret",
        "  ferry ldap serve --ldif data.ldif --schema /etc/ldap/schema/core.schema \\",
        "      --schema /etc/ldap/schema/cosine.schema \\",
        "      --schema /etc/ldap/schema/inetorgperson.schema",
        "  ldapsearch -x -H ldap://127.0.0.1:1389 -b dc=example,dc=com '(uid=bjensen)'"})
final class LdapServe implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--ldif", paramLabel = "FILE", required = true,
      description = "LDIF to load at start (repeat for more, loaded in order).")
  List<Path> ldif = new ArrayList<>();

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
      description = "Address to listen on (0.0.0.0: every interface). Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(names = {"-p", "--port"}, defaultValue = "1389", paramLabel = "PORT",
      description = "Port (0: any free one). Default: ${DEFAULT-VALUE}.")
  int port;

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

  @Option(names = "--no-anonymous-read", negatable = true, defaultValue = "true",
      description = "Let clients that have not bound read the directory. Default: they may.")
  boolean anonymousRead;

  @Override
  public Integer call() throws IOException {
    check();
    LdapServer.Builder b = LdapServer.builder().address(InetAddress.getByName(host)).port(port)
        .access(AccessRules.builder().anonymousRead(anonymousRead).build());
    for (String s : suffixes) {
      b.suffix(s);
    }
    if (rootDn != null) {
      b.rootDn(rootDn, rootPassword);
    }
    if (!schema.isEmpty()) {
      b.schema(schema());
    }
    for (Path f : ldif) {
      b.ldif(f);
    }
    try (LdapServer server = b.start()) {
      PrintWriter out = spec.commandLine().getOut();
      out.println("LDAP server at " + server.url() + " (" + server.entryCount() + " entries"
          + (schema.isEmpty() ? "" : ", schema checked") + (rootDn == null ? ""
          : ", root DN " + rootDn) + ")");
      out.println("Ctrl-C stops it.");
      out.flush();
      ServeCommand.RunUntilStopped.run(server);
    }
    spec.commandLine().getOut().println("stopped");
    return 0;
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

  private void check() {
    if (port < 0 || port > 65535) {
      throw new ParameterException(spec.commandLine(), "--port must be 0 to 65535: " + port);
    }
    if ((rootDn == null) != (rootPassword == null)) {
      throw new ParameterException(spec.commandLine(),
          "--root-dn and --root-password go together");
    }
    for (Path f : ldif) {
      if (!Files.isRegularFile(f)) {
        throw new ParameterException(spec.commandLine(), "--ldif: no such file: " + f);
      }
    }
  }
}
