package dev.ferry.cli;

import picocli.CommandLine.Command;

/** {@code ferry ldap}: an in-memory directory server, and a search client. */
@Command(name = "ldap", mixinStandardHelpOptions = true,
    description = "Serve a directory from LDIF, and search one.",
    subcommands = {LdapServe.class, LdapSearch.class})
final class LdapCommand {}
