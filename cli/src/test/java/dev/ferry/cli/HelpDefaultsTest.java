package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.broker.Routes;
import dev.ferry.sample.EchoService;
import dev.ferry.security.ClientAuth;
import dev.ferry.xop.XopLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Every default that a help text prints is the value the code uses. Where the help prints the
 * option's own default (picocli's {@code ${DEFAULT-VALUE}}), the test checks that the command
 * gets the same value with the option left out as with that text given; any other default in a
 * help text is a claim written by hand, and the test holds a check of each against the code. A
 * new one fails here until it gets a check.
 */
class HelpDefaultsTest {
  private static final Pattern DEFAULT = Pattern.compile("(?i)\\bdefault\\b");

  /** Arguments each command requires, so that it parses without the rest. */
  private static final Map<String, List<String>> REQUIRED = Map.of(
      "ferry broker", List.of("--routes", "routes.yaml"),
      "ferry ldap import", List.of("--data", "dir", "data.ldif"),
      "ferry ldap export", List.of("--data", "dir"),
      "ferry send", List.of("--url", "http://127.0.0.1:1/echo"),
      "ferry ldap serve", List.of("--ldif", "data.ldif"),
      "ferry ldap search", List.of("--url", "ldap://127.0.0.1:1"),
      "ferry mime pack", List.of("-o", "out.eml", "root.xml"),
      "ferry mime unpack", List.of("-d", "out", "msg.eml"),
      "ferry mime inspect", List.of("msg.eml"));

  @TempDir Path dir;

  /** The defaults written by hand into help texts, each with its check against the code. */
  private Map<String, Consumer<String>> handWritten() {
    return Map.ofEntries(
        Map.entry("ferry broker (description)", text -> {
          Matcher m = Pattern.compile("\\(default (\\w+)\\)").matcher(text);
          assertThat(m.find()).as(text).isTrue();
          Routes routes = Routes.parse("routes:\n  - path: /echo\n    to: http://127.0.0.1:1/\n");
          assertThat(DurationText.parse(m.group(1))).isEqualTo(routes.timeout());
        }),
        Map.entry("ferry serve --client-auth", text -> clientAuth(text, "serve")),
        Map.entry("ferry broker --client-auth", text -> clientAuth(text, "broker",
            "--routes", "routes.yaml")),
        Map.entry("ferry send --mtom", text -> {
          assertThat(text).contains("MTOM attachment (default)");
          assertThat(((SendCommand) parse("send", "--url", "http://h/")).mtom).isTrue();
        }),
        Map.entry("ferry send --soap-action", text -> {
          assertThat(text).contains("else \"" + EchoService.SOAP_ACTION + "\"");
          assertThat(((SendCommand) parse("send", "--url", "http://h/")).soapAction).isNull();
        }),
        Map.entry("ferry send --trust", text -> {
          assertThat(text).contains("(default: the JDK's)");
          SendCommand send = (SendCommand) parse("send", "--url", "https://h/");
          assertThat(send.security.settings(send.spec)).as("no TLS settings: the JDK's").isNull();
        }),
        Map.entry("ferry mime pack --type", this::packTypeIsTheRootFiles),
        Map.entry("ferry ldap serve --no-anonymous-read", text -> {
          assertThat(text).contains("Default: they may");
          assertThat(((LdapServe) parse("ldap", "serve", "--ldif", "x")).anonymousRead).isTrue();
        }),
        Map.entry("ferry ldap serve --suffix", text -> {
          // no suffix given: the server takes every entry without a parent as a top entry
          assertThat(text).contains("Default: the top entries of the LDIF");
          assertThat(((LdapServe) parse("ldap", "serve", "--ldif", "x")).directory.suffixes)
              .isEmpty();
        }),
        Map.entry("ferry ldap import --suffix", text -> {
          assertThat(text).contains("Default: the top entries of the LDIF");
          assertThat(((LdapImport) parse("ldap", "import", "--data", "d", "x.ldif")).directory
              .suffixes).isEmpty();
        }),
        Map.entry("ferry ldap search --base", text -> {
          assertThat(text).contains("Default: the root DSE"); // whose DN is empty (RFC 4512)
          assertThat(((LdapSearch) parse("ldap", "search", "--url", "ldap://h")).base).isEmpty();
        }),
        Map.entry("ferry ldap search ATTRIBUTE", text -> {
          // an empty list asks for all user attributes (RFC 4511 4.5.1.8)
          assertThat(text).contains("Default: all user attributes");
          assertThat(((LdapSearch) parse("ldap", "search", "--url", "ldap://h")).attributes)
              .isEmpty();
        }));
  }

  @Test
  void everyDefaultAHelpTextPrintsIsTheValueTheCommandGets() {
    Map<String, Consumer<String>> handWritten = handWritten();
    Set<String> checked = new HashSet<>();
    int fromPicocli = 0;
    for (CommandSpec command : commands(new CommandLine(new Ferry()).getCommandSpec())) {
      String name = command.qualifiedName();
      String about = String.join(" ", command.usageMessage().description()) + " "
          + String.join(" ", command.usageMessage().footer());
      if (DEFAULT.matcher(about).find()) {
        checkHandWritten(handWritten, name + " (description)", about, checked);
      }
      for (ArgSpec arg : command.args()) {
        String text = String.join(" ", arg.description());
        if (!DEFAULT.matcher(text).find()) {
          continue;
        }
        String key = name + " " + name(arg);
        String printed = arg.defaultValue();
        if (printed != null && !printed.isEmpty() && text.contains("Default: " + printed)) {
          checkPicocliDefault(command, arg, key);
          fromPicocli++;
        } else {
          checkHandWritten(handWritten, key, text, checked);
        }
      }
    }
    assertThat(checked).as("every hand-written default was found in a help text")
        .containsExactlyInAnyOrderElementsOf(handWritten.keySet());
    assertThat(fromPicocli).isGreaterThan(20);
  }

  @Test
  void theRootLimitIsTheLibrarysDefault() {
    assertThat(ByteSize.parse(LimitOptions.DEFAULT_MAX_ROOT))
        .isEqualTo(XopLimits.DEFAULT_MAX_ROOT_BYTES);
    ServeCommand serve = (ServeCommand) parse("serve");
    assertThat(serve.limits.codec().limits().xop().maxRootBytes())
        .isEqualTo(XopLimits.DEFAULT_MAX_ROOT_BYTES);
    for (String command : List.of("serve", "broker", "send")) {
      assertThat(ferry(command, "--help").out()).as(command)
          .containsPattern("--max-root=SIZE\\s+Largest envelope[^.]*;[^.]*\\.\\s+Default: "
              + LimitOptions.DEFAULT_MAX_ROOT + "\\.");
    }
  }

  /**
   * The command left without the option gets the value it gets when the printed default is
   * given explicitly.
   */
  private static void checkPicocliDefault(CommandSpec command, ArgSpec arg, String key) {
    List<String> base = path(command);
    base.addAll(REQUIRED.getOrDefault(command.qualifiedName(), List.of()));
    Object left = value(base, arg);
    List<String> given = new ArrayList<>(base);
    if (arg instanceof OptionSpec option) {
      given.add(option.longestName() + "=" + arg.defaultValue());
    } else {
      given.add(arg.defaultValue());
    }
    assertThat(left).as(key).isEqualTo(value(given, arg));
  }

  private static void checkHandWritten(Map<String, Consumer<String>> checks, String key,
      String text, Set<String> checked) {
    assertThat(checks).as("'%s' prints a default by hand that this test does not check: %s",
        key, text).containsKey(key);
    checks.get(key).accept(text);
    checked.add(key);
  }

  private static void clientAuth(String text, String... command) {
    assertThat(text).contains("Default: REQUIRED with --client-ca, else NONE");
    assertThat(tls(command).clientAuthMode()).isEqualTo(ClientAuth.NONE);
    List<String> withCa = new ArrayList<>(List.of(command));
    withCa.addAll(List.of("--client-ca", "ca.pem"));
    assertThat(tls(withCa.toArray(String[]::new)).clientAuthMode())
        .isEqualTo(ClientAuth.REQUIRED);
  }

  private static TlsListenOptions tls(String... command) {
    Object parsed = parse(command);
    return parsed instanceof ServeCommand s ? s.security : ((BrokerCommand) parsed).security;
  }

  private void packTypeIsTheRootFiles(String text) {
    assertThat(text).contains("(default: the root file's)");
    try {
      Path root = Files.writeString(dir.resolve("root.xml"), "<a/>");
      Path msg = dir.resolve("msg.eml");
      assertThat(ferry("mime", "pack", "-o", msg.toString(), root + ":text/xml").exit()).isZero();
      assertThat(ferry("mime", "inspect", msg.toString()).out()).contains("type=\"text/xml\"");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The command object picocli fills from {@code args}, the last subcommand's. */
  private static Object parse(String... args) {
    ParseResult r = new CommandLine(new Ferry()).parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    return r.commandSpec().userObject();
  }

  /** The value {@code arg} gets when the command line is {@code args}. */
  private static Object value(List<String> args, ArgSpec arg) {
    ParseResult r = new CommandLine(new Ferry()).parseArgs(args.toArray(String[]::new));
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    CommandSpec spec = r.commandSpec();
    return arg instanceof OptionSpec o ? spec.findOption(o.longestName()).getValue()
        : spec.positionalParameters().get(arg.command().positionalParameters().indexOf(arg))
            .getValue();
  }

  private static List<CommandSpec> commands(CommandSpec root) {
    List<CommandSpec> all = new ArrayList<>(List.of(root));
    for (CommandLine sub : root.subcommands().values()) {
      if (!all.contains(sub.getCommandSpec())) {
        all.addAll(commands(sub.getCommandSpec()));
      }
    }
    return all;
  }

  /** The words that select {@code command}, from the root's subcommands down. */
  private static List<String> path(CommandSpec command) {
    List<String> words = new ArrayList<>();
    for (CommandSpec c = command; c.parent() != null; c = c.parent()) {
      words.add(0, c.name());
    }
    return words;
  }

  private static String name(ArgSpec arg) {
    return arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
  }
}
