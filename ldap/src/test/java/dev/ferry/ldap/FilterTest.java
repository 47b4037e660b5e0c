package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilterTest {

  private static ByteString utf8(String s) {
    return ByteString.encodeUtf8(s);
  }

  /** Every example of RFC 4515 section 4, with the form we write back (escapes normalised). */
  // CHECKSTYLE.OFF: LineLength (the RFC's examples, quoted whole)
  @ParameterizedTest
  @CsvSource(delimiterString = " => ", quoteCharacter = '`', textBlock = """
      (cn=Babs Jensen) => (cn=Babs Jensen)
      (!(cn=Tim Howes)) => (!(cn=Tim Howes))
      (&(objectClass=Person)(|(sn=Jensen)(cn=Babs J*))) => (&(objectClass=Person)(|(sn=Jensen)(cn=Babs J*)))
      (o=univ*of*mich*) => (o=univ*of*mich*)
      (seeAlso=) => (seeAlso=)
      (cn:caseExactMatch:=Fred Flintstone) => (cn:caseExactMatch:=Fred Flintstone)
      (cn:=Betty Rubble) => (cn:=Betty Rubble)
      (sn:dn:2.4.6.8.10:=Barney Rubble) => (sn:dn:2.4.6.8.10:=Barney Rubble)
      (o:dn:=Ace Industry) => (o:dn:=Ace Industry)
      (:1.2.3:=Wilma Flintstone) => (:1.2.3:=Wilma Flintstone)
      (:DN:2.4.6.8.10:=Dino) => (:dn:2.4.6.8.10:=Dino)
      (o=Parens R Us \\28for all your parenthetical needs\\29) => (o=Parens R Us \\28for all your parenthetical needs\\29)
      (cn=*\\2A*) => (cn=*\\2a*)
      (filename=C:\\5cMyFile) => (filename=C:\\5cMyFile)
      (sn=Lu\\c4\\8di\\c4\\87) => (sn=Lu\\c4\\8di\\c4\\87)
      (1.3.6.1.4.1.1466.0=\\04\\02\\48\\69) => (1.3.6.1.4.1.1466.0=\\04\\02Hi)
      """)
  // CHECKSTYLE.ON: LineLength
  void parsesAndWritesRfc4515Examples(String text, String written) {
    Filter f = Filter.parse(text.replace("\\\\", "\\"));
    assertEquals(written.replace("\\\\", "\\"), f.toString());
    assertEquals(f, Filter.parse(f.toString()));
    assertEquals(f, LdapCodecTest.roundTripFilter(f));
  }

  @Test
  void buildsTheRightChoices() {
    assertEquals(new Filter.And(List.of(new Filter.Equality("objectClass", utf8("Person")),
        new Filter.Or(List.of(new Filter.Equality("sn", utf8("Jensen")),
            new Filter.Substrings("cn", utf8("Babs J"), List.of(), null))))),
        Filter.parse("(&(objectClass=Person)(|(sn=Jensen)(cn=Babs J*)))"));
    assertEquals(new Filter.Substrings("o", utf8("univ"), List.of(utf8("of")), null),
        Filter.parse("(o=univ*of*)"));
    assertEquals(new Filter.Present("cn"), Filter.parse("(cn=*)"));
    assertEquals(new Filter.Extensible("2.4.6.8.10", "sn", utf8("Barney Rubble"), true),
        Filter.parse("(sn:dn:2.4.6.8.10:=Barney Rubble)"));
    assertEquals(new Filter.Extensible("1.2.3", null, utf8("Wilma"), false),
        Filter.parse("(:1.2.3:=Wilma)"));
    assertEquals(new Filter.Approx("cn", utf8("x")), Filter.parse("(cn~=x)"));
    assertEquals(new Filter.GreaterOrEqual("n", utf8("5")), Filter.parse("(n>=5)"));
    assertEquals(new Filter.LessOrEqual("n", utf8("5")), Filter.parse("(n<=5)"));
    assertEquals(new Filter.Substrings("cn", null, List.of(utf8("*")), null),
        Filter.parse("(cn=*\\2A*)"));
    assertEquals(new Filter.Equality("sn", utf8("Lučić")), Filter.parse("(sn=Lučić)"));
    assertEquals(new Filter.And(List.of()), Filter.parse("(&)"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      cn=x          | expected '(' at index 0
      (cn=x         | unexpected end of filter at index 5
      (cn=x))       | unexpected text after the filter at index 6
      (=x)          | expected an attribute description at index 1
      (cn=\\zz)     | two hex digits at index 4
      (cn=a**b)     | empty substring between two '*' at index 8
      (:=x)         | needs an attribute or a matching rule at index 1
      (cn~x)        | expected '=' at index 4
      """)
  void reportsSyntaxErrorsWithTheIndex(String text, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Filter.parse(text.replace("\\\\", "\\")));
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void capsNestingOfTheStringForm() {
    String deep = "(!".repeat(LdapLimits.DEFAULT_MAX_FILTER_DEPTH - 1) + "(a=*)"
        + ")".repeat(LdapLimits.DEFAULT_MAX_FILTER_DEPTH - 1);
    Filter.parse(deep);
    String tooDeep = "(!" + deep + ")";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Filter.parse(tooDeep));
    assertTrue(e.getMessage().contains("deeper than 50"), e.getMessage());
    String huge = "(!".repeat(1_000_000);
    assertThrows(IllegalArgumentException.class, () -> Filter.parse(huge));
  }
}
