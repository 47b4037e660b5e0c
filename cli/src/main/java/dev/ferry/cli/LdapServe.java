package dev.ferry.cli;

import dev.ferry.ldap.server.AccessRules;
import dev.ferry.ldap.server.LdapServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry ldap serve}: Ferry's LDAP server, until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve an LDAP directory until interrupted with Ctrl-C: in memory, loaded"
        + " from LDIF files (changes clients make are lost when it stops), or with --data DIR"
        + " kept on disk in LMDB (a change is answered once it is on disk; the LDIF files, if"
        + " any, are loaded only into an empty store).",
        "", "Who may do what, without --access: clients that have not bound read every entry"
        + " but never a password (userPassword); bound users read the same and may change"
        + " their own password (ldappasswd, or a modify of their userPassword) and nothing"
        + " else; only the --root-dn adds, changes, renames and deletes entries and sees"
        + " passwords. With --access FILE, the file's rules decide instead (one grant a line:"
        + " 'to SUBTREE|* by anonymous|users|dn=DN|dn.subtree=DN read|write|manage'; manage"
        + " also shows passwords). --read-only refuses every change, the root DN's too."
        + " Passwords given in clear (LDIF, add, modify, ldappasswd) are stored hashed as"
        + " {PBKDF2-SHA256}.",
        "", "Without --schema any attribute and object class is accepted (matching by the"
        + " standard schema where it knows the attribute); with it, adds and modifies are"
        + " checked against the schema files given (OpenLDAP .schema or LDIF, loaded on Ferry's"
        + " system schema, in order) or, for --schema standard, Ferry's standard schema.",
        "", "SIGTERM (or Ctrl-C) drains: new connections are taken for --drain-delay, then"
        + " refused; each connection is closed with a notice of disconnection once its"
        + " operations are done, or when --drain-timeout has passed."},
    footer = {"", "Examples:",
        "  ferry ldap serve --ldif data.ldif --port 1389",
        "  ferry ldap serve --ldif data.ldif --suffix dc=example,dc=com \\",
        "      --root-dn cn=admin,dc=example,dc=com --root-password secret",
        "  ferry ldap serve --ldif data.ldif --access rules.txt --read-only",
        "  ferry ldap serve --ldif data.ldif --index uid=eq --index cn=eq,sub,pres",
        "  ferry ldap serve --data /var/lib/ferry-ldap --suffix dc=example,dc=com \\",
        "      --root-dn cn=admin,dc=example,dc=com --root-password secret --index uid=eq",
        "  ferry ldap serve --ldif data.ldif --schema /etc/ldap/schema/core.schema \\",
        "      --schema /etc/ldap/schema/cosine.schema \\",
        "      --schema /etc/ldap/schema/inetorgperson.schema",
        "  ldapsearch -x -H ldap://127.0.0.1:1389 -b dc=example,dc=com '(uid=bjensen)'"})
final class LdapServe implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin LdapDirectoryOptions directory;

  @Option(names = "--ldif", paramLabel = "FILE",
      description = "LDIF to load at start (repeat for more, loaded in order); with --data,"
          + " only into an empty store.")
  List<Path> ldif = new ArrayList<>();

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
      description = "Address to listen on (0.0.0.0: every interface). Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(names = {"-p", "--port"}, defaultValue = "1389", paramLabel = "PORT",
      description = "Port (0: any free one). Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--no-anonymous-read", negatable = true, defaultValue = "true",
      description = "Without --access: let clients that have not bound read the directory"
          + " (never passwords). Default: they may.")
  boolean anonymousRead;

  @Option(names = "--access", paramLabel = "FILE",
      description = "Access rules, one grant a line: to SUBTREE|* by WHO LEVEL (WHO: anonymous,"
          + " users, dn=DN, dn.subtree=DN; LEVEL: read, write, manage). Only what the file"
          + " grants is allowed; the root DN may do everything.")
  Path access;

  @Option(names = "--read-only",
      description = "Refuse every change clients ask for, the root DN's too.")
  boolean readOnly;

  @Mixin DrainOptions drain;

  @Override
  public Integer call() throws IOException {
    check();
    LdapServer.Builder b = directory.builder(spec).address(InetAddress.getByName(host))
        .port(port).access(rules()).readOnly(readOnly).drain(drain.delay, drain.timeout);
    for (Path f : ldif) {
      b.ldif(f);
    }
    try (Telemetry telemetry = Telemetry.start("ferry-ldap");
        LdapServer server = b.openTelemetry(telemetry.openTelemetry()).start()) {
      PrintWriter out = spec.commandLine().getOut();
      out.println("LDAP server at " + server.url() + " (" + server.entryCount() + " entries"
          + (directory.data == null ? " in memory" : " kept in " + directory.data)
          + (directory.schema.isEmpty() ? "" : ", schema checked")
          + (directory.rootDn == null ? "" : ", root DN " + directory.rootDn)
          + (access == null ? ", default access" : ", access from " + access)
          + (readOnly ? ", read-only" : "") + ")");
      out.println("Ctrl-C stops it.");
      out.flush();
      ServeCommand.RunUntilStopped.run(telemetry.closing(server));
    }
    spec.commandLine().getOut().println("stopped");
    return 0;
  }

  /**
   * The file's rules, or the default: anonymous read if not turned off, bound users read
   * everything (passwords never, their own password they may change), the root DN writes.
   */
  private AccessRules rules() throws IOException {
    if (access != null) {
      try {
        return AccessRules.read(access);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--access " + access + ": "
            + e.getMessage());
      }
    }
    return AccessRules.builder().anonymousRead(anonymousRead)
        .allowBoundUsers("", AccessRules.Level.READ).build();
  }

  private void check() {
    if (port < 0 || port > 65535) {
      throw new ParameterException(spec.commandLine(), "--port must be 0 to 65535: " + port);
    }
    if (ldif.isEmpty() && directory.data == null) {
      throw new ParameterException(spec.commandLine(), "--ldif or --data: what to serve");
    }
    for (Path f : ldif) {
      if (!Files.isRegularFile(f)) {
        throw new ParameterException(spec.commandLine(), "--ldif: no such file: " + f);
      }
    }
    if (access != null && !Files.isRegularFile(access)) {
      throw new ParameterException(spec.commandLine(), "--access: no such file: " + access);
    }
    if (access != null && spec.commandLine().getParseResult().hasMatchedOption(
        "--no-anonymous-read")) {
      throw new ParameterException(spec.commandLine(), "--access and --[no-]anonymous-read:"
          + " the file says who may read");
    }
  }
}
