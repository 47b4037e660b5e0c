package dev.ferry.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PasswordFileTest {
  private static String alice;
  private static String bob;

  @TempDir
  Path dir;

  @BeforeAll
  static void lines() {
    // the fewest iterations allowed keep the test fast; the default is tested once
    alice = PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS);
    bob = PasswordFile.line("bob", "builder".toCharArray(), PasswordFile.MIN_ITERATIONS);
  }

  private Path file(String... lines) throws Exception {
    return Files.writeString(dir.resolve("users.txt"), "# users\n\n" + String.join("\n", lines)
        + "\n");
  }

  @Test
  void linesAreSaltedPbkdf2() {
    assertThat(PasswordFile.line("alice", "wonderland".toCharArray()))
        .matches("alice:pbkdf2-sha256:600000:[A-Za-z0-9+/=]{24}:[A-Za-z0-9+/=]{44}");
    assertThat(PasswordFile.line("a", "x".toCharArray(), 10_000)).isNotEqualTo(
        PasswordFile.line("a", "x".toCharArray(), 10_000)); // a new salt each time
    assertThatThrownBy(() -> PasswordFile.line("a", new char[1], 9_999))
        .hasMessageContaining("at least 10000");
    assertThatThrownBy(() -> PasswordFile.line("a:b", new char[1]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void verifiesRightPasswordsOnly() throws Exception {
    PasswordFile users = PasswordFile.load(file(alice, bob));
    assertThat(users.verify("alice", "wonderland".toCharArray())).isTrue();
    assertThat(users.isRemembered("alice", "wonderland".toCharArray())).isTrue();
    assertThat(users.verify("alice", "wonderland".toCharArray())).isTrue();
    assertThat(users.verify("alice", "builder".toCharArray())).isFalse();
    assertThat(users.isRemembered("alice", "builder".toCharArray())).isFalse();
    assertThat(users.verify("carol", "wonderland".toCharArray())).isFalse();
    assertThat(users.contains("bob")).isTrue();
    assertThat(users.contains("carol")).isFalse();
  }

  @Test
  void aChangedFileIsReadAgainAndForgetsWhatWasRemembered() throws Exception {
    Path f = file(alice);
    PasswordFile users = PasswordFile.load(f, Duration.ZERO);
    assertThat(users.verify("alice", "wonderland".toCharArray())).isTrue();
    Thread.sleep(20);
    file(PasswordFile.line("alice", "changed".toCharArray(), 10_000), bob);
    assertThat(users.contains("bob")).isTrue();
    assertThat(users.isRemembered("alice", "wonderland".toCharArray())).isFalse();
    assertThat(users.verify("alice", "wonderland".toCharArray())).isFalse();
    assertThat(users.verify("alice", "changed".toCharArray())).isTrue();
  }

  @Test
  void malformedLinesNameTheLine() throws Exception {
    assertThatThrownBy(() -> PasswordFile.load(file("alice:plain:secret")))
        .hasMessageContaining("users.txt: line 3: expected user:pbkdf2-sha256:");
    assertThatThrownBy(() -> PasswordFile.load(file(alice, alice)))
        .hasMessageContaining("line 4: user alice appears twice");
    assertThatThrownBy(() -> PasswordFile.load(file("x:pbkdf2-sha256:0:AA==:AA==")))
        .hasMessageContaining("line 3: malformed iterations");
  }

  @Test
  void authenticatorTakesBasicOrACertificate() throws Exception {
    PasswordFile users = PasswordFile.load(file(alice));
    Authenticator basic = Authenticator.basic(users);
    assertThat(basic.authenticate(basic("alice", "wonderland"), null))
        .isEqualTo(Identity.user("alice"));
    assertThatThrownBy(() -> basic.authenticate(basic("alice", "nope"), null))
        .isInstanceOf(AuthenticationException.class).hasMessage("wrong user or password");
    assertThatThrownBy(() -> basic.authenticate(null, null))
        .hasMessage("no credentials: send HTTP Basic credentials");
    assertThatThrownBy(() -> basic.authenticate("Bearer abc", null))
        .hasMessageContaining("the Bearer scheme is not accepted");
    assertThatThrownBy(() -> basic.authenticate("Basic !!!", null))
        .hasMessageContaining("malformed Basic credentials");
    assertThatThrownBy(() -> basic.authenticate("Basic " + b64("no-colon"), null))
        .hasMessageContaining("malformed Basic credentials");
    assertThat(basic.challenge()).isEqualTo("Basic realm=\"ferry\", charset=\"UTF-8\"");
    assertThat(basic.isQuick(null)).isTrue();
    assertThat(basic.isQuick(basic("alice", "wonderland"))).isTrue(); // remembered
    assertThat(basic.isQuick(basic("alice", "other"))).isFalse();

    X509Certificate cert = dev.ferry.testkit.TestPki.create("CN=CA").issue("CN=svc,O=Ferry")
        .make().certificate();
    Authenticator either = basic.orCertificate();
    Identity byCert = either.authenticate(null, new X509Certificate[] {cert});
    assertThat(byCert.getName()).isEqualTo("CN=svc,O=Ferry");
    assertThat(byCert.method()).isEqualTo(Identity.Method.CERTIFICATE);
    assertThatThrownBy(() -> either.authenticate(basic("alice", "nope"),
        new X509Certificate[] {cert})).hasMessage("wrong user or password");
    Authenticator certOnly = Authenticator.certificate();
    assertThat(certOnly.challenge()).isNull();
    assertThatThrownBy(() -> certOnly.authenticate(null, null)).hasMessage("no client certificate");
    assertThatThrownBy(() -> certOnly.authenticate(basic("alice", "wonderland"), null))
        .hasMessage("no client certificate"); // credentials are not looked at
    assertThat(certOnly.authenticate(basic("x", "y"), new X509Certificate[] {cert}).getName())
        .isEqualTo("CN=svc,O=Ferry");
  }

  @Test
  void rolesComeFromTheFunctionGivenForBothKindsOfCaller() throws Exception {
    X509Certificate cert = dev.ferry.testkit.TestPki.create("CN=CA").issue("CN=svc,O=Ferry")
        .make().certificate();
    Map<String, Set<String>> roles = Map.of("alice", Set.of("admin", "clerk"),
        "CN=svc,O=Ferry", Set.of("system"));
    Authenticator auth = Authenticator.basic(PasswordFile.load(file(alice, bob))).orCertificate()
        .withRoles(who -> roles.get(who.getName()));
    Identity a = auth.authenticate(basic("alice", "wonderland"), null);
    assertThat(a.roles()).containsExactlyInAnyOrder("admin", "clerk");
    assertThat(a.isInRole("admin")).isTrue();
    assertThat(a.isInRole("system")).isFalse();
    assertThat(auth.authenticate(basic("bob", "builder"), null).roles()).isEmpty();
    assertThat(auth.authenticate(null, new X509Certificate[] {cert}).isInRole("system")).isTrue();
    assertThat(Authenticator.basic(PasswordFile.load(file(alice)))
        .authenticate(basic("alice", "wonderland"), null).roles()).isEmpty();
  }

  private static String basic(String user, String password) {
    return "Basic " + b64(user + ":" + password);
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }
}
