package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DnTest {

  /** The examples of RFC 4514 section 4, with the form we write back. */
  // CHECKSTYLE.OFF: LineLength (the RFC's examples, quoted whole)
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      UID=jsmith,DC=example,DC=net                 | UID=jsmith,DC=example,DC=net
      OU=Sales+CN=J.  Smith,DC=example,DC=net      | OU=Sales+CN=J.  Smith,DC=example,DC=net
      CN=James \\"Jim\\" Smith\\, III,DC=example,DC=net | CN=James \\"Jim\\" Smith\\, III,DC=example,DC=net
      CN=Before\\0dAfter,DC=example,DC=net         | `CN=Before\rAfter,DC=example,DC=net`
      1.3.6.1.4.1.1466.0=#04024869                 | 1.3.6.1.4.1.1466.0=#04024869
      CN=Lu\\C4\\8Di\\C4\\87                       | CN=Lučić
      """)
  // CHECKSTYLE.ON: LineLength
  void parsesAndWritesRfc4514Examples(String text, String written) {
    Dn dn = Dn.parse(text.replace("\\\\", "\\"));
    assertEquals(written.replace("\\\\", "\\"), dn.toString());
    assertEquals(dn, Dn.parse(dn.toString()));
  }

  @Test
  void exposesStructure() {
    Dn dn = Dn.parse("cn=Smith\\, John+uid=js, dc=example,dc=com");
    assertEquals(3, dn.rdns().size());
    assertEquals("Smith, John", dn.rdns().get(0).avas().get(0).valueAsString());
    assertEquals("js", dn.rdns().get(0).avas().get(1).valueAsString());
    assertEquals("dc=example,dc=com", dn.parent().toString());
    assertEquals("cn=x,dc=example,dc=com",
        dn.parent().child(Dn.Rdn.of("cn", "x")).toString());
    assertTrue(Dn.parse("").isRoot());
    assertEquals(new Dn.Ava("1.2.3", ByteString.decodeHex("04024869"), true),
        Dn.parse("1.2.3=#04024869").rdns().get(0).avas().get(0));
  }

  @Test
  void escapesWhatRfc4514Requires() {
    Dn dn = new Dn(List.of(Dn.Rdn.of("cn", " #a+b,c;d<e>f\\g\"h "), Dn.Rdn.of("o", "x\0y")));
    assertEquals("cn=\\ #a\\+b\\,c\\;d\\<e\\>f\\\\g\\\"h\\ ,o=x\\00y", dn.toString());
    assertEquals(dn, Dn.parse(dn.toString()));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      cn               | expected '=' at index 2
      =x               | expected an attribute type at index 0
      cn=a,            | expected an attribute type at index 5
      cn=a\\           | '\\' at the end at index 4
      cn=a\\zz         | bad escape '\\z' at index 4
      cn=#zz           | expected hex pairs after '#' at index 4
      cn=a"b           | '"' must be escaped at index 4
      """)
  void reportsSyntaxErrorsWithTheIndex(String text, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Dn.parse(text.replace("\\\\", "\\")));
    assertTrue(e.getMessage().contains(message.replace("\\\\", "\\")), e.getMessage());
  }
}
