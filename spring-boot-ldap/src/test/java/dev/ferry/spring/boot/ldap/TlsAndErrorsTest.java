package dev.ferry.spring.boot.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.server.LdapServer;
import dev.ferry.testkit.TestPki;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The embedded directory over LDAPS and StartTLS with its key from an SSL bundle, the pool
 * checking it with another bundle's trust; a pool to a directory outside the application;
 * and start-up failing with the property named when a value is wrong.
 */
class TlsAndErrorsTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @TempDir
  static Path dir;
  private static String[] bundles;

  @BeforeAll
  static void certificates() throws Exception {
    TestPki pki = TestPki.create("CN=LDAP test CA");
    TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1")
        .make();
    TestPki other = TestPki.create("CN=Another CA");
    bundles = new String[] {
        "spring.ssl.bundle.pem.directory.keystore.certificate="
            + server.writeChainPem(dir.resolve("server.pem")).toUri(),
        "spring.ssl.bundle.pem.directory.keystore.private-key="
            + server.writeKeyPem(dir.resolve("server.key")).toUri(),
        "spring.ssl.bundle.pem.ours.truststore.certificate="
            + TestPki.writePem(dir.resolve("ca.pem"), pki.certificate()).toUri(),
        "spring.ssl.bundle.pem.theirs.truststore.certificate="
            + TestPki.writePem(dir.resolve("other.pem"), other.certificate()).toUri()};
  }

  private static SpringApplicationBuilder app(String... properties) {
    return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
        .properties("spring.main.banner-mode=off", "ferry.ldap.embedded.base-dn=o=Ferry",
            "ferry.ldap.embedded.ldif=classpath:ferry.ldif")
        .properties(bundles).properties(properties);
  }

  private static int entries(LdapPool pool) throws Exception {
    return pool.execute(c -> c.searchAll(SearchRequest.of("o=Ferry", SearchScope.WHOLE_SUBTREE,
        Filter.present("objectClass")))).size();
  }

  @Test
  void ldapsFromAnSslBundleStopsWithTheApplication() throws Exception {
    int port;
    try (ConfigurableApplicationContext context = app(
        "ferry.ldap.embedded.ssl.bundle=directory",
        "ferry.ldap.pool.ssl.bundle=ours").run()) {
      LdapServer server = context.getBean(LdapServer.class);
      assertThat(server.url()).startsWith("ldaps://");
      assertThat(entries(context.getBean(LdapPool.class))).isEqualTo(2);
      port = server.port();
    }
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
        .as("the directory closed with the application").isInstanceOf(ConnectException.class);
  }

  @Test
  void startTlsIsSentAndTheServersCertificateChecked() throws Exception {
    String[] startTls = {"ferry.ldap.embedded.ssl.bundle=directory",
        "ferry.ldap.embedded.ssl.mode=start-tls", "ferry.ldap.pool.ssl.mode=start-tls"};
    try (ConfigurableApplicationContext context = app(startTls)
        .properties("ferry.ldap.pool.ssl.bundle=ours").run()) {
      assertThat(context.getBean(LdapServer.class).url()).startsWith("ldap://");
      assertThat(entries(context.getBean(LdapPool.class))).isEqualTo(2);
    }
    assertThatThrownBy(() -> app(startTls).properties("ferry.ldap.pool.ssl.bundle=theirs")
        .run().close()).as("a CA that did not sign the server's certificate")
        .hasStackTraceContaining("ferry.ldap.pool");
  }

  @Test
  void aPoolToADirectoryOutsideTheApplication() throws Exception {
    try (LdapServer outside = LdapServer.builder().suffix("o=Ferry")
        .ldif("dn: o=Ferry\nobjectClass: organization\no: Ferry\n").start();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.NONE)
            .properties("ferry.ldap.pool.urls=" + outside.url(), "ferry.ldap.pool.name=hr",
                "ferry.ldap.pool.max=2").run()) {
      assertThat(context.getBeansOfType(LdapServer.class)).isEmpty();
      assertThat(entries(context.getBean(LdapPool.class))).isEqualTo(1);
    }
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void aWrongValueFailsStartUpNamingTheProperty(CapturedOutput output) {
    for (String bad : List.of("ferry.ldap.pool.max=0", "ferry.ldap.pool.checkout-timeout=0s",
        "ferry.ldap.embedded.port=70000", "ferry.ldap.pool.strategy=random")) {
      int from = output.getOut().length();
      assertThatThrownBy(() -> app(bad).run().close()).as(bad)
          .isInstanceOf(RuntimeException.class);
      assertThat(output.getOut().substring(from)).as("the start-up report").contains(
          "APPLICATION FAILED TO START", "Property: " + bad.substring(0, bad.indexOf('=')),
          "Reason:");
    }
    assertThatThrownBy(() -> app("ferry.ldap.pool.min=3", "ferry.ldap.pool.max=2").run()
        .close()).hasStackTraceContaining("ferry.ldap.pool.min (3) is above");
    assertThatThrownBy(() -> app("ferry.ldap.embedded.ldif=classpath:missing.ldif").run()
        .close()).hasStackTraceContaining("ferry.ldap.embedded.ldif: there is no");
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(FerryLdapAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader(LdapServer.class))
        .withPropertyValues("ferry.ldap.embedded.base-dn=o=Ferry")
        .run(context -> assertThat(context.getStartupFailure()).as("without ldap-server")
            .hasStackTraceContaining("ferry.ldap.embedded.base-dn is set, but the directory"
                + " server (dev.ferry:ferry-ldap-server) is not on the class path"));
    assertThatThrownBy(() -> app("ferry.ldap.embedded.ssl.bundle=nope").run().close())
        .hasStackTraceContaining("ferry.ldap.embedded.ssl.bundle")
        .hasStackTraceContaining("there is no SSL bundle \"nope\"");
  }
}
