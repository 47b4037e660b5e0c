package dev.ferry.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Log lines with secrets in every place a SOAP, HTTP or LDAP message puts them: none of the
 * secrets survives masking, and what is not secret stays.
 */
public class LogMaskingTest {
  /** Each line holds the secret "S3cr3t-…" once or more; nothing else in it is secret. */
  public static List<String> corpus() {
    return List.of(
        "POST /echo headers: {Authorization=Basic YWxpY2U6UzNjcjN0LWE=, Content-Type=text/xml}",
        "Authorization: Bearer S3cr3t-b.token.value",
        "proxy-authorization: Digest username=\"bob\", response=\"S3cr3t-c\"",
        "{\"Authorization\":\"Basic S3cr3t-d\",\"SOAPAction\":\"urn:x\"}",
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Header>"
            + "<wsse:Security xmlns:wsse=\"urn:wsse\"><wsse:UsernameToken><wsse:Username>alice"
            + "</wsse:Username><wsse:Password Type=\"urn:x#PasswordText\">S3cr3t-e</wsse:Password>"
            + "</wsse:UsernameToken></wsse:Security></s:Header><s:Body/></s:Envelope>",
        "<wsse:Password Type=\"urn:x#PasswordText\"><![CDATA[S3cr3t-f <&>]]></wsse:Password>",
        "<Password>S3cr3t-g</Password><other>kept</other>",
        "truncated message: <s:Body><login><password>S3cr3t-h",
        "<login user=\"alice\" password=\"S3cr3t-i\" apiKey='S3cr3t-j'/>",
        "<clientSecret>S3cr3t-k</clientSecret>",
        "GET /wsdl?user=alice&password=S3cr3t-l&x=1",
        "settings: trustPassword=S3cr3t-m, keyPassword: S3cr3t-n; token=S3cr3t-o",
        "{\"password\": \"S3cr3t-p with spaces\", \"user\": \"alice\"}",
        "dn: uid=alice,dc=example,dc=com\nuserPassword: S3cr3t-q\ncn: Alice",
        "dn: uid=bob,dc=example,dc=com\nuserPassword:: UzNjcjN0LXI=",
        "simple bind as cn=admin,dc=example,dc=com credentials=S3cr3t-s",
        "payment <cardNumber>4111 1111 1111 1111</cardNumber> and 5500-0000-0000-0004");
  }

  /** What {@link #corpus()} must never show once masked. */
  public static void assertNoSecret(String masked) {
    assertThat(masked).doesNotContain("S3cr3t").doesNotContain("YWxpY2U6UzNjcjN0LWE")
        .doesNotContain("UzNjcjN0LXI").doesNotContain("4111 1111").doesNotContain("5500-0000");
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void noSecretSurvives(String line) {
    String masked = LogMasking.mask(line);
    assertNoSecret(masked);
    assertThat(masked).contains(LogMasking.MASK);
  }

  @Test
  void whatIsNotSecretStays() {
    String access = "127.0.0.1 \"POST /echo\" 200 in=1843 out=1901 1.2ms";
    assertThat(LogMasking.mask(access)).isSameAs(access);
    assertThat(LogMasking.mask("<wsse:Username>alice</wsse:Username><wsse:Password>x"
        + "</wsse:Password><s:Body>hello</s:Body>"))
        .contains("alice").contains("hello").doesNotContain(">x<");
    assertThat(LogMasking.mask("order 1234567890123 shipped")) // fails the Luhn check
        .contains("1234567890123");
  }

  @Test
  void namesOfTheApplicationAreMaskedAsElementsAndAttributes() {
    LogMasking m = LogMasking.defaults().withNames(List.of("pin", "IBAN"));
    assertThat(m.apply("<pay:PIN>S3cr3t-1</pay:PIN><account iban=\"S3cr3t-2\" owner=\"alice\"/>"
        + "<pinCode>kept</pinCode><password>S3cr3t-3</password>"))
        .doesNotContain("S3cr3t").contains("alice").contains("<pinCode>kept</pinCode>")
        .contains("<pay:PIN>***</pay:PIN>");
    assertThat(m.apply("<pin><![CDATA[S3cr3t-4]]></pin>")).isEqualTo("<pin>***</pin>");
    assertThatThrownBy(() -> LogMasking.defaults().withNames(List.of("a b")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"a b\"");
  }

  /**
   * The words that make a line worth masking are found in any case and anywhere in a line,
   * whatever surrounds them (the scan compares in place instead of lower-casing a copy).
   */
  @Property(tries = 300)
  void secretWordsAreFoundInAnyCase(@ForAll("mixedCase") String name,
      @ForAll("filler") String before, @ForAll("filler") String after) {
    String line = before + "<" + name + ">S3cr3t-z</" + name + "> " + name + "=S3cr3t-y" + after;
    assertThat(LogMasking.mask(line)).doesNotContain("S3cr3t");
  }

  @Provide
  Arbitrary<String> mixedCase() {
    return Arbitraries.of("password", "userPassword", "pwd", "clientSecret", "accessToken",
        "credentials", "api_key", "apiKey").flatMap(word -> Arbitraries.integers()
        .between(0, (1 << word.length()) - 1).map(bits -> {
          StringBuilder b = new StringBuilder(word);
          for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            b.setCharAt(i, (bits >> i & 1) == 1 ? Character.toUpperCase(c)
                : Character.toLowerCase(c));
          }
          return b.toString();
        }));
  }

  @Provide
  Arbitrary<String> filler() {
    return Arbitraries.strings().withChars("pasToken <>/=\"\u00e9\u0130\u212a").ofMaxLength(40);
  }

  @Test
  void namesOutsideAsciiAreFoundInAnyCase() {
    LogMasking m = LogMasking.defaults().withNames(List.of("\u00c9cusson", "pin"));
    assertThat(m.apply("<x:\u00e9CUSSON>S3cr3t-5</x:\u00e9CUSSON> <PIN>S3cr3t-6</PIN>"))
        .doesNotContain("S3cr3t");
  }
}
