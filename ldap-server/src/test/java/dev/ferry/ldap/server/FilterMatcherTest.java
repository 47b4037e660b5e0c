package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Three-valued filter evaluation (RFC 4511 section 4.5.1.7) on one stored entry. */
class FilterMatcherTest {
  static final Schema SCHEMA = Schema.standard();

  static StoredEntry entry(boolean checking) throws OperationException {
    EntryFactory f = new EntryFactory(SCHEMA, checking ? new SchemaChecker(SCHEMA) : null,
        Clock.systemUTC(), new Passwords(PasswordScheme.ssha256()));
    return f.create(Dn.parse("cn=x,dc=example"), List.of(
        Attribute.of("objectClass", "device", "extensibleObject"), Attribute.of("cn", "x"),
        Attribute.of("uidNumber", "42"), Attribute.of("description", "Ships and  sails"),
        Attribute.of("cn;lang-de", "Ix")), "", false);
  }

  static int eval(String filter, boolean checking) throws OperationException {
    FilterMatcher m = new FilterMatcher(SCHEMA, new Directory(SCHEMA, List.of()).read(), checking);
    return m.eval(Filter.parse(filter), entry(checking));
  }

  @Test
  void itemsAreTrueFalseOrUndefined() throws OperationException {
    assertEquals(FilterMatcher.TRUE, eval("(uidNumber=042)", true));
    assertEquals(FilterMatcher.FALSE, eval("(uidNumber=43)", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(uidNumber=forty-two)", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(!(uidNumber=forty-two))", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(cn>=a)", true)); // cn has no ordering rule
    assertEquals(FilterMatcher.TRUE, eval("(uidNumber>=41)", true));
    assertEquals(FilterMatcher.FALSE, eval("(uidNumber<=41)", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(shoeSize=9)", true)); // schema: undefined type
    assertEquals(FilterMatcher.FALSE, eval("(shoeSize=9)", false)); // permissive: a string
  }

  @Test
  void andOrCombineUndefined() throws OperationException {
    assertEquals(FilterMatcher.FALSE, eval("(&(uidNumber=x)(cn=y))", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(&(uidNumber=x)(cn=x))", true));
    assertEquals(FilterMatcher.TRUE, eval("(|(uidNumber=x)(cn=x))", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(|(uidNumber=x)(cn=y))", true));
    assertEquals(FilterMatcher.TRUE, eval("(&)", true));
    assertEquals(FilterMatcher.FALSE, eval("(|)", true));
  }

  @Test
  void substringsOptionsAndPresence() throws OperationException {
    assertEquals(FilterMatcher.TRUE, eval("(description=SHIPS*sails)", true));
    assertEquals(FilterMatcher.TRUE, eval("(description=*and sail*)", true));
    assertEquals(FilterMatcher.FALSE, eval("(description=*sails*ships*)", true));
    assertEquals(FilterMatcher.TRUE, eval("(cn;lang-de=ix)", true));
    assertEquals(FilterMatcher.FALSE, eval("(cn;lang-fr=ix)", true));
    assertEquals(FilterMatcher.TRUE, eval("(cn=ix)", true)); // no options: every option
    assertEquals(FilterMatcher.TRUE, eval("(name=*)", true)); // a supertype
    assertEquals(FilterMatcher.FALSE, eval("(mail=*)", true));
  }

  @Test
  void approximateItemsMatchBySound() throws OperationException {
    assertEquals(FilterMatcher.TRUE, eval("(description~=shipps and sales)", true));
    assertEquals(FilterMatcher.TRUE, eval("(description~=sales)", true)); // one word of them
    assertEquals(FilterMatcher.FALSE, eval("(description~=sales ships)", true)); // in order
    assertEquals(FilterMatcher.FALSE, eval("(description~=boats)", true));
    assertEquals(FilterMatcher.TRUE, eval("(uidNumber~=042)", true)); // no sound: equality
    assertEquals(FilterMatcher.FALSE, eval("(uidNumber~=41)", true));
  }

  @Test
  void extensibleItemsWithOrderingRulesMatchLesserValues() throws OperationException {
    assertEquals(FilterMatcher.TRUE, eval("(uidNumber:integerOrderingMatch:=43)", true));
    assertEquals(FilterMatcher.FALSE, eval("(uidNumber:integerOrderingMatch:=42)", true));
    assertEquals(FilterMatcher.TRUE, eval("(cn:caseIgnoreOrderingMatch:=Y)", true));
    assertEquals(FilterMatcher.FALSE, eval("(cn:caseExactOrderingMatch:=I)", true)); // "Ix" and "x"
    assertEquals(FilterMatcher.TRUE, eval("(:integerOrderingMatch:=100)", true)); // any type
    // A rule of another syntax than the type's: Undefined, as slapd (RFC 4512 matchingRuleUse)
    assertEquals(FilterMatcher.UNDEFINED, eval("(uidNumber:caseIgnoreOrderingMatch:=5)", true));
    assertEquals(FilterMatcher.UNDEFINED, eval("(!(cn:integerOrderingMatch:=5))", true));
    // Only createTimestamp has the rule's syntax: it is later than 1990, earlier than 2300
    assertEquals(FilterMatcher.FALSE, eval("(:generalizedTimeOrderingMatch:=19900101000000Z)",
        true));
    assertEquals(FilterMatcher.TRUE, eval("(:generalizedTimeOrderingMatch:=23000101000000Z)",
        true));
  }
}
