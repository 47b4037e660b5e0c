package dev.ferry.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry ldap import}: LDIF into a durable store, as slapd's {@code slapadd}. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Add the records of an LDIF file to the directory kept in --data, without"
        + " serving it (the server must not be running on it): 10,000 records a commit, each"
        + " checked as an add by the root DN would be (the schema, if given; passwords"
        + " hashed), operational attributes in the file kept. Give the same --suffix,"
        + " --schema and --index as 'ferry ldap serve' will.",
        "", "A record that cannot be applied stops the import, naming it; the commits before"
        + " it are kept."},
    footer = {"", "Example:",
        "  ferry ldap import --data /var/lib/ferry-ldap --suffix dc=example,dc=com \\",
        "      --index uid=eq --index cn=eq,sub people.ldif"})
final class LdapImport implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin LdapDirectoryOptions directory;

  @Parameters(paramLabel = "FILE", description = "The LDIF file.")
  Path ldif;

  @Override
  public Integer call() throws IOException {
    if (directory.data == null) {
      throw new ParameterException(spec.commandLine(), "--data DIR: where the store is");
    }
    if (!Files.isRegularFile(ldif)) {
      throw new ParameterException(spec.commandLine(), "no such file: " + ldif);
    }
    long start = System.nanoTime();
    long records;
    try {
      records = directory.builder(spec).importLdif(ldif);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("ferry ldap import: " + e.getMessage());
      return 1;
    }
    spec.commandLine().getOut().printf("imported %,d records into %s in %.1f s%n", records,
        directory.data, (System.nanoTime() - start) / 1e9);
    return 0;
  }
}
