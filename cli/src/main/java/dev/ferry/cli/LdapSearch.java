package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.DerefAliases;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.LdifWriter;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry ldap search}: one search, its entries printed as LDIF. */
@Command(name = "search", mixinStandardHelpOptions = true,
    description = {"Search an LDAP server and print the entries as LDIF (RFC 2849), then a"
        + " comment with the result. A result other than success exits with 5, naming the"
        + " result code, the server's message and the matched DN."},
    footer = {"", "Examples:",
        "  ferry ldap search --url ldap://127.0.0.1:1389 --base dc=example,dc=com '(uid=bjensen)'",
        "  ferry ldap search --url ldap://127.0.0.1:1389 --base ou=people,dc=example,dc=com \\",
        "      --scope one --page-size 100 '(objectClass=person)' cn mail",
        "  ferry ldap search --url ldaps://ldap.example.com --bind-dn cn=app,dc=example,dc=com \\",
        "      --password-env LDAP_PASSWORD --base dc=example,dc=com '(cn=*)' 1.1"})
final class LdapSearch implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--url", required = true, paramLabel = "URL",
      description = "The server: ldap://host:port or ldaps://host:port.")
  String url;

  @Option(names = {"-b", "--base"}, defaultValue = "", paramLabel = "DN",
      description = "Where the search starts. Default: the root DSE.")
  String base;

  @Option(names = {"-s", "--scope"}, defaultValue = "sub", paramLabel = "SCOPE",
      description = "base, one, sub or children. Default: ${DEFAULT-VALUE}.")
  String scope;

  @Option(names = {"-D", "--bind-dn"}, paramLabel = "DN", description = "Bind as this DN.")
  String bindDn;

  @Option(names = {"-w", "--password"}, paramLabel = "PASSWORD",
      description = "The bind password (visible to other users of this machine: prefer"
          + " --password-env).")
  String password;

  @Option(names = "--password-env", paramLabel = "NAME",
      description = "Read the bind password from this environment variable.")
  String passwordEnv;

  @Option(names = "--starttls", description = "Upgrade the connection with StartTLS.")
  boolean startTls;

  @Option(names = {"-z", "--size-limit"}, defaultValue = "0", paramLabel = "N",
      description = "Ask for at most N entries (0: the server's limit).")
  int sizeLimit;

  @Option(names = "--page-size", defaultValue = "0", paramLabel = "N",
      description = "Page through the results, N at a time (RFC 2696); 0: no paging.")
  int pageSize;

  @Option(names = "--types-only", description = "Ask for attribute names without values.")
  boolean typesOnly;

  @Option(names = "--timeout", defaultValue = "30s", paramLabel = "DURATION",
      converter = DurationText.Converter.class,
      description = "Connect and response timeout, such as 10s or 1m. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Parameters(index = "0", defaultValue = "(objectClass=*)", paramLabel = "FILTER",
      description = "RFC 4515 filter. Default: ${DEFAULT-VALUE}.")
  String filter;

  @Parameters(index = "1..*", paramLabel = "ATTRIBUTE",
      description = "Attributes to return (* all user, + all operational, 1.1 none). Default:"
          + " all user attributes.")
  List<String> attributes = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    SearchRequest request = request();
    LdapOptions options = LdapOptions.builder().timeout(timeout).build();
    OutputStream stdout = new WriterStream(spec.commandLine().getOut());
    try (LdapConnection c = connect(options); LdifWriter ldif = LdifWriter.of(stdout)) {
      if (startTls) {
        c.startTls();
      }
      if (bindDn != null) {
        c.bind(bindDn, password());
      }
      int count = 0;
      LdapResult result;
      ByteString cookie = ByteString.EMPTY;
      do {
        Control[] controls = pageSize == 0 ? new Control[0]
            : new Control[] {new PagedResults(pageSize, cookie).toControl(true)};
        try (SearchResults results = c.search(request, controls)) {
          while (results.hasNext()) {
            if (results.next().op() instanceof SearchResultEntry e) {
              ldif.write(e);
              count++;
            }
          }
          LdapMessage done = results.doneMessage();
          result = done.op().result();
          cookie = nextCookie(done);
        }
      } while (cookie.size() > 0 && result.resultCode().equals(ResultCode.SUCCESS));
      ldif.writeComment(count + " entries, " + result.resultCode());
      ldif.flush();
      if (!result.resultCode().equals(ResultCode.SUCCESS)) {
        throw new PeerException(new LdapException(result).getMessage());
      }
    } catch (LdapException e) {
      throw isClientSide(e.resultCode()) ? e : new PeerException(e.getMessage(), e);
    }
    return 0;
  }

  private LdapConnection connect(LdapOptions options) throws IOException {
    try {
      return LdapConnection.connect(url, options);
    } catch (IllegalArgumentException e) {
      throw usage("--url: " + e.getMessage());
    } catch (IOException e) {
      throw new IOException("cannot connect to " + url + ": " + e.getMessage(), e);
    }
  }

  /** The client gave up (connection, timeout): an I/O failure, not the server's answer. */
  private static boolean isClientSide(ResultCode code) {
    return code.equals(ResultCode.SERVER_DOWN) || code.equals(ResultCode.TIMEOUT)
        || code.equals(ResultCode.CONNECT_ERROR);
  }

  private static ByteString nextCookie(LdapMessage done) throws IOException {
    for (Control c : done.controls()) {
      if (PagedResults.OID.equals(c.oid())) {
        return PagedResults.from(c).cookie();
      }
    }
    return ByteString.EMPTY;
  }

  private SearchRequest request() {
    SearchScope s = switch (scope) {
      case "base" -> SearchScope.BASE_OBJECT;
      case "one" -> SearchScope.SINGLE_LEVEL;
      case "sub" -> SearchScope.WHOLE_SUBTREE;
      case "children" -> SearchScope.SUBORDINATE_SUBTREE;
      default -> throw usage("--scope must be base, one, sub or children: " + scope);
    };
    if (sizeLimit < 0 || pageSize < 0) {
      throw usage("--size-limit and --page-size must not be negative");
    }
    Filter f;
    try {
      f = Filter.parse(filter);
    } catch (IllegalArgumentException e) {
      throw usage("FILTER: " + e.getMessage());
    }
    return new SearchRequest(base, s, DerefAliases.NEVER, sizeLimit, 0, typesOnly, f,
        attributes);
  }

  private String password() {
    if (passwordEnv != null) {
      String p = System.getenv(passwordEnv);
      if (p == null) {
        throw usage("--password-env: " + passwordEnv + " is not set");
      }
      return p;
    }
    if (password == null) {
      throw usage("--bind-dn needs --password or --password-env");
    }
    return password;
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
