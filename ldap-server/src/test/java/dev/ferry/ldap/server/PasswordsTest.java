package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.interop.Slapd;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;

/** Password hashing and checking, against the JDK's PBKDF2 and OpenLDAP's slappasswd. */
class PasswordsTest {

  @Test
  void pbkdf2IsTheJdksForTextPasswords() throws Exception {
    Random random = new Random(34);
    for (String hmac : List.of("HmacSHA1", "HmacSHA256", "HmacSHA512")) {
      SecretKeyFactory jdk = SecretKeyFactory.getInstance("PBKDF2With" + hmac);
      for (int i = 0; i < 20; i++) {
        char[] password = new char[1 + random.nextInt(40)];
        for (int j = 0; j < password.length; j++) {
          password[j] = (char) (' ' + random.nextInt(95));
        }
        byte[] salt = new byte[random.nextInt(33) + 1];
        random.nextBytes(salt);
        int iterations = 1 + random.nextInt(300);
        int keyBytes = 1 + random.nextInt(100); // more than one block at times
        byte[] expected = jdk.generateSecret(new PBEKeySpec(password, salt, iterations,
            keyBytes * 8)).getEncoded();
        byte[] actual = Passwords.pbkdf2(hmac, new String(password).getBytes(
            StandardCharsets.UTF_8), salt, iterations, keyBytes);
        assertArrayEquals(expected, actual, hmac + " " + new String(password));
      }
    }
  }

  @Test
  void eachSchemeChecksWhatItHashes() {
    for (PasswordScheme scheme : List.of(PasswordScheme.DEFAULT, PasswordScheme.ssha256(),
        PasswordScheme.ssha512())) {
      Passwords p = new Passwords(scheme);
      ByteString hash = p.hash(ByteString.encodeUtf8("Zoë's secret"));
      assertTrue(hash.utf8().startsWith("{" + scheme.name + "}"), hash.utf8());
      assertTrue(Passwords.isHashed(hash));
      assertTrue(p.matches(ByteString.encodeUtf8("Zoë's secret"), new ByteString[] {hash}));
      assertFalse(p.matches(ByteString.encodeUtf8("Zoë's secreT"), new ByteString[] {hash}));
      assertFalse(p.hash(ByteString.encodeUtf8("x")).equals(p.hash(ByteString.encodeUtf8("x"))),
          "a fresh salt each time");
    }
    String pbkdf2 = new Passwords(PasswordScheme.DEFAULT).hash(ByteString.encodeUtf8("x"))
        .utf8();
    // pw-pbkdf2's layout: iterations, a 16-byte salt and a 32-byte key in adapted base64
    assertTrue(pbkdf2.matches("\\{PBKDF2-SHA256}10000\\$[A-Za-z0-9./]{22}\\$[A-Za-z0-9./]{43}"),
        pbkdf2);
  }

  @Test
  void clearTextIsHashedAndHashesAreKept() {
    Passwords p = new Passwords(PasswordScheme.ssha512());
    ByteString clear = ByteString.encodeUtf8("secret");
    ByteString stored = p.stored(clear);
    assertTrue(stored.utf8().startsWith("{SSHA512}"), stored.utf8());
    assertTrue(p.matches(clear, new ByteString[] {p.stored(ByteString.encodeUtf8(
        "{CLEARTEXT}secret"))}));
    ByteString ssha = ByteString.encodeUtf8("{SSHA}1G904nLkTkGWjKNnQuB/hpWXC/hzYWx0c2FsdA==");
    assertEquals(ssha, p.stored(ssha));
    assertEquals(ByteString.encodeUtf8("{ssha256}x"), p.stored(ByteString.encodeUtf8(
        "{ssha256}x"))); // a scheme named in any case is taken as a hash, as slapd does
  }

  @Test
  void hashesSlappasswdWritesAreChecked() throws Exception {
    Slapd.ensureInstalled();
    Passwords p = new Passwords(PasswordScheme.DEFAULT);
    List<String> checked = new ArrayList<>();
    for (String[] scheme : new String[][] {{"{SSHA}", null}, {"{SSHA256}", "pw-sha2.so"},
        {"{SSHA512}", "pw-sha2.so"}, {"{PBKDF2}", "pw-pbkdf2.so"},
        {"{PBKDF2-SHA256}", "pw-pbkdf2.so"}, {"{PBKDF2-SHA512}", "pw-pbkdf2.so"}}) {
      List<String> command = new ArrayList<>(List.of("/usr/sbin/slappasswd", "-n", "-h",
          scheme[0], "-s", "Zoë's secret"));
      if (scheme[1] != null) {
        command.addAll(List.of("-o", "module-path=/usr/lib/ldap", "-o", "module-load="
            + scheme[1]));
      }
      ByteString hash = ByteString.of(Slapd.tool(command));
      assertTrue(hash.utf8().startsWith(scheme[0]), hash.utf8());
      assertTrue(p.matches(ByteString.encodeUtf8("Zoë's secret"), new ByteString[] {hash}),
          hash.utf8());
      assertFalse(p.matches(ByteString.encodeUtf8("Zoe's secret"), new ByteString[] {hash}));
      checked.add(scheme[0]);
    }
    assertEquals(6, checked.size());
  }
}
