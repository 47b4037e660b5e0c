package dev.ferry.cli;

import picocli.CommandLine.Command;

/** {@code ferry ldap}: a directory server, its import and export, and a search client. */
@Command(name = "ldap", mixinStandardHelpOptions = true,
    description = "Serve a directory (in memory or kept on disk), import and export one, and"
        + " search one.",
    subcommands = {LdapServe.class, LdapImport.class, LdapExport.class, LdapSearch.class})
final class LdapCommand {}
