package dev.ferry.cli;

import dev.ferry.ldap.server.LdapServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ferry ldap export}: a durable store as LDIF, as slapd's {@code slapcat}. */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = {"Write every entry of the directory kept in --data as LDIF, parents before"
        + " children, with operational attributes and hashed passwords: what 'ferry ldap"
        + " import' takes back. It reads one snapshot of the store, and may run beside a"
        + " server that is serving it."},
    footer = {"", "Example:",
        "  ferry ldap export --data /var/lib/ferry-ldap --output backup.ldif"})
final class LdapExport implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--data", paramLabel = "DIR", required = true,
      description = "The store's folder.")
  Path data;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write to FILE instead of the standard output.")
  Path output;

  @Override
  public Integer call() throws IOException {
    long n;
    if (output == null) {
      n = LdapServer.exportLdif(data, new WriterStream(spec.commandLine().getOut()));
    } else {
      try (OutputStream out = Files.newOutputStream(output)) {
        n = LdapServer.exportLdif(data, out);
      }
    }
    spec.commandLine().getErr().printf("exported %,d entries%n", n);
    return 0;
  }
}
