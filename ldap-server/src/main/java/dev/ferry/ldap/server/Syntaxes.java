package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Value checks for the syntaxes of RFC 4517 section 3.3 that the schema check applies on add and
 * modify. A syntax not listed here accepts any value, as binary syntaxes must.
 */
final class Syntaxes {
  private static final String PREFIX = "1.3.6.1.4.1.1466.115.121.1.";
  private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
  private static final Pattern PRINTABLE = Pattern.compile("[A-Za-z0-9 '()+,\\-./:?=]+");
  private static final Pattern NUMERIC = Pattern.compile("[0-9 ]+");
  private static final Pattern OID = Pattern.compile(
      "([0-2](\\.(0|[1-9][0-9]*))+)|([A-Za-z][A-Za-z0-9-]*)");
  private static final Pattern UUID = Pattern.compile(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private static final Map<String, Predicate<ByteString>> CHECKS = Map.ofEntries(
      Map.entry(PREFIX + "7", v -> v.utf8().equals("TRUE") || v.utf8().equals("FALSE")),
      Map.entry(PREFIX + "11", v -> v.size() == 2 && PRINTABLE.matcher(v.utf8()).matches()),
      Map.entry(PREFIX + "12", Syntaxes::isDn),
      Map.entry(PREFIX + "15", v -> v.size() > 0 && utf8(v) != null),
      Map.entry(PREFIX + "24", v -> MatchingRules.generalizedTime(v.utf8()) != null),
      Map.entry(PREFIX + "26", Syntaxes::isIa5),
      Map.entry(PREFIX + "27", v -> INTEGER.matcher(v.utf8()).matches()),
      Map.entry(PREFIX + "34", Syntaxes::isNameAndUid),
      Map.entry(PREFIX + "36", v -> NUMERIC.matcher(v.utf8()).matches()),
      Map.entry(PREFIX + "38", v -> OID.matcher(v.utf8().strip()).matches()),
      Map.entry(PREFIX + "41", v -> v.size() > 0 && utf8(v) != null),
      Map.entry(PREFIX + "44", v -> PRINTABLE.matcher(v.utf8()).matches()),
      Map.entry(PREFIX + "50", v -> PRINTABLE.matcher(v.utf8()).matches()),
      Map.entry("1.3.6.1.1.16.1", v -> UUID.matcher(v.utf8()).matches()));

  private Syntaxes() {}

  /** Returns true if {@code value} is valid for the syntax with this OID. */
  static boolean isValid(String syntaxOid, ByteString value) {
    Predicate<ByteString> check = CHECKS.get(syntaxOid);
    return check == null || check.test(value);
  }

  private static boolean isDn(ByteString v) {
    String s = utf8(v);
    if (s == null) {
      return false;
    }
    try {
      Dn.parse(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isNameAndUid(ByteString v) {
    String s = utf8(v);
    if (s == null) {
      return false;
    }
    int hash = s.lastIndexOf('#');
    if (hash > 0 && s.endsWith("'B") && s.charAt(hash + 1) == '\'') {
      s = s.substring(0, hash);
    }
    return isDn(ByteString.encodeUtf8(s));
  }

  private static boolean isIa5(ByteString v) {
    for (int i = 0; i < v.size(); i++) {
      if (v.byteAt(i) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Returns the text if {@code v} is UTF-8, else null. */
  static String utf8(ByteString v) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(v.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
