package dev.ferry.broker.internal;

import dev.ferry.broker.internal.PathProgram.AttributeTest;
import dev.ferry.broker.internal.PathProgram.Axis;
import dev.ferry.broker.internal.PathProgram.Comparison;
import dev.ferry.broker.internal.PathProgram.NameTest;
import dev.ferry.broker.internal.PathProgram.Position;
import dev.ferry.broker.internal.PathProgram.Predicate;
import dev.ferry.broker.internal.PathProgram.Step;
import dev.ferry.broker.internal.PathProgram.Target;
import dev.ferry.broker.internal.PathProgram.TextTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles the streamable subset of XPath 1.0 that a broker evaluates as it reads a Body, or
 * refuses an expression outside it, saying which part and why. The Body is the context: a path
 * starts at its children ({@code /a} or {@code a}) or anywhere below it ({@code //a}).
 *
 * <pre>
 * expr       = path [ op literal ]
 * path       = [ "/" | "//" ] step { ( "/" | "//" ) step } [ "/" ( "@" name | "text()" ) ]
 * step       = [ "child::" ] nametest { predicate }
 * nametest   = qname | prefix ":*" | "*:" local | "*"
 * predicate  = "[" integer "]"                          (position among the siblings so far)
 *            | "[" "@" qname [ op literal ] "]"         (an attribute there, or its value)
 *            | "[" ( "." | "text()" ) op literal "]"    (the element's text; last step only)
 * op         = "=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="  (the last four with numbers only)
 * literal    = "'" chars "'" | '"' chars '"' | number
 * </pre>
 *
 * Everything else is refused, because a pass that reads forward once and stops as soon as it
 * knows cannot evaluate it: axes that look back or sideways, {@code last()}, predicates on a
 * child's value, functions, unions and boolean operators, variables.
 */
public final class PathCompiler {
  /** The longest expression compiled. */
  public static final int MAX_EXPRESSION_CHARS = 1024;
  /** The most steps in a path (a scan keeps a bit per step per open element). */
  public static final int MAX_STEPS = 32;
  /** The most characters of a value read as a number; a longer one is not a number. */
  static final int MAX_NUMBER_CHARS = 64;

  private static final Set<String> BACKWARD_AXES = Set.of("parent", "ancestor",
      "ancestor-or-self", "preceding", "preceding-sibling");
  private static final Set<String> SIDEWAYS_AXES = Set.of("following", "following-sibling",
      "descendant", "descendant-or-self", "self", "attribute", "namespace");

  private final String text;
  private final Map<String, String> namespaces;
  private int pos;
  private int slots;

  private PathCompiler(String text, Map<String, String> namespaces) {
    this.text = text;
    this.namespaces = namespaces;
  }

  /**
   * Compiles {@code expression} with {@code namespaces} (prefix to URI).
   *
   * @throws IllegalArgumentException quoting the expression, naming what is outside the subset
   *     or malformed, why, and at which character
   */
  public static PathProgram compile(String expression, Map<String, String> namespaces) {
    if (expression.length() > MAX_EXPRESSION_CHARS) {
      throw new IllegalArgumentException("body path of " + expression.length()
          + " characters: the most is " + MAX_EXPRESSION_CHARS);
    }
    return new PathCompiler(expression, namespaces).expression();
  }

  private PathProgram expression() {
    List<Step> steps = new ArrayList<>();
    Target target = Target.ELEMENT;
    NameTest attribute = null;
    skipSpace();
    Axis axis = consume("//") ? Axis.DESCENDANT : consume("/") ? Axis.CHILD : Axis.CHILD;
    while (true) {
      skipSpace();
      if (consume("@")) {
        attribute = name(true);
        target = Target.ATTRIBUTE;
        refuseStepAfter("an attribute");
        break;
      }
      if (lookingAtWord("text") && peekAfterWord() == '(') {
        expectWordCall("text");
        target = Target.TEXT;
        refuseStepAfter("text()");
        break;
      }
      steps.add(step(axis));
      if (steps.size() > MAX_STEPS) {
        throw error("more than " + MAX_STEPS + " steps");
      }
      skipSpace();
      if (consume("//")) {
        axis = Axis.DESCENDANT;
      } else if (consume("/")) {
        axis = Axis.CHILD;
      } else {
        break;
      }
    }
    if (steps.isEmpty()) {
      throw error("a path needs an element step before " + (target == Target.ATTRIBUTE
          ? "an attribute" : "text()") + " (the Body's own attributes and text are not"
          + " its content)");
    }
    checkTextTests(steps, target);
    Comparison comparison = comparisonOrNull();
    skipSpace();
    if (pos < text.length()) {
      refuseOperators();
      throw unexpected();
    }
    return new PathProgram(text, namespaces, steps, target, attribute, comparison, slots);
  }

  private void refuseStepAfter(String what) {
    skipSpace();
    if (pos < text.length() && text.charAt(pos) == '/') {
      throw error("a step after " + what + ": it must be the path's last");
    }
  }

  /** A text test needs the element's end, so only the last element step has one. */
  private void checkTextTests(List<Step> steps, Target target) {
    for (int k = 0; k < steps.size(); k++) {
      Step s = steps.get(k);
      if (s.textTest() == null) {
        continue;
      }
      boolean last = k == steps.size() - 1 && target == Target.ELEMENT;
      if (!last) {
        throw new IllegalArgumentException(quoted() + ": a text test on the step " + s.name()
            .local() + " that has " + (k == steps.size() - 1 ? "an attribute or text() after it"
            : "steps after it") + ": its text is known only at its end, after its children;"
            + " only the last step may test text (write the step's path = 'value')");
      }
      int textAt = s.predicates().indexOf(s.textTest());
      for (int j = textAt + 1; j < s.predicates().size(); j++) {
        if (s.predicates().get(j) instanceof Position) {
          throw new IllegalArgumentException(quoted() + ": a position after a text test on "
              + s.name().local() + ": which one is first is known only at the elements' ends");
        }
      }
    }
  }

  private Step step(Axis axis) {
    if (lookingAt("..") || lookingAt(".")) {
      throw error(lookingAt("..") ? "the parent step .. looks back at what was read; the"
          + " subset reads forward once" : "the step . (self) selects the element before it:"
          + " leave it out");
    }
    if (lookingAtWord("child") && text.startsWith("::", wordEnd())) {
      pos = wordEnd() + 2;
    } else if (lookingAtName() && text.startsWith("::", wordEnd())) {
      String name = text.substring(pos, wordEnd());
      throw error(BACKWARD_AXES.contains(name) ? "the " + name + ":: axis looks back at what"
          + " was read; the subset reads forward once" : SIDEWAYS_AXES.contains(name)
          ? "the " + name + ":: axis is not in the subset (child steps and // only)"
          : "no axis " + name + "::");
    }
    NameTest name = name(false);
    List<Predicate> predicates = new ArrayList<>();
    skipSpace();
    while (consume("[")) {
      predicates.add(predicate());
      skipSpace();
      if (!consume("]")) {
        throw unexpected();
      }
      skipSpace();
    }
    return new Step(axis, name, predicates);
  }

  private Predicate predicate() {
    skipSpace();
    if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      int start = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      String digits = text.substring(start, pos);
      if (digits.length() > 9 || Integer.parseInt(digits) < 1) {
        pos = start;
        throw error("a position must be from 1 to 999999999, got " + digits);
      }
      return new Position(Integer.parseInt(digits), slots++);
    }
    if (consume("@")) {
      NameTest name = name(true);
      return new AttributeTest(name, comparisonOrNull());
    }
    if (lookingAtWord("text") && peekAfterWord() == '(') {
      expectWordCall("text");
      return textTest(true);
    }
    if (lookingAt(".") && !lookingAt("..")) {
      pos++;
      return textTest(false);
    }
    if (lookingAtWord("last") && peekAfterWord() == '(') {
      throw error("last() needs the number of siblings, known only after the last one; the"
          + " subset decides as it reads");
    }
    if (lookingAtName() && peekAfterWord() == '(') {
      throw error("functions are not in the subset (only text() in a comparison)");
    }
    throw error("a predicate on a child's value or path is not in the subset: it needs content"
        + " past the element's start to decide whether the element is selected (write a"
        + " path down to the child: order/symbol = 'IBM')");
  }

  private TextTest textTest(boolean nodes) {
    Comparison c = comparisonOrNull();
    if (c == null) {
      throw error("a text test needs a comparison, such as [. = 'IBM']");
    }
    return new TextTest(c, nodes);
  }

  /** An operator and a literal, or null if none follows. */
  private Comparison comparisonOrNull() {
    skipSpace();
    String op = consume("!=") ? "!=" : consume("<=") ? "<=" : consume(">=") ? ">="
        : consume("=") ? "=" : consume("<") ? "<" : consume(">") ? ">" : null;
    if (op == null) {
      refuseOperators();
      return null;
    }
    skipSpace();
    if (pos < text.length() && (text.charAt(pos) == '\'' || text.charAt(pos) == '"')) {
      char quote = text.charAt(pos);
      int end = text.indexOf(quote, pos + 1);
      if (end < 0) {
        throw error("a literal without its closing " + quote);
      }
      String literal = text.substring(pos + 1, end);
      if (!op.equals("=") && !op.equals("!=")) {
        throw error(op + " compares numbers: write a number, not a string");
      }
      pos = end + 1;
      return new Comparison(op, literal, Double.NaN, false);
    }
    int start = pos;
    if (pos < text.length() && text.charAt(pos) == '-') {
      pos++;
    }
    while (pos < text.length() && (Character.isDigit(text.charAt(pos))
        || text.charAt(pos) == '.')) {
      pos++;
    }
    double number = Comparison.number(text.substring(start, pos));
    if (Double.isNaN(number)) {
      pos = start;
      throw error(text.startsWith("$", pos) ? "variables are not in the subset"
          : "expected a literal ('text' or a number) after " + op);
    }
    return new Comparison(op, text.substring(start, pos), number, true);
  }

  private void refuseOperators() {
    if (pos >= text.length()) {
      return;
    }
    if (text.charAt(pos) == '|') {
      throw error("a union (|) is not in the subset: give the route one condition per path");
    }
    for (String word : new String[] {"and", "or", "div", "mod"}) {
      if (lookingAtWord(word)) {
        throw error(word + " is not in the subset: a route's conditions must all hold, so give"
            + " it one condition per path (or a route per alternative)");
      }
    }
  }

  /**
   * A name test; for an attribute, no wildcard. Prefixes must be declared; an unprefixed name
   * has no namespace (XPath 1.0), {@code *:local} any.
   */
  private NameTest name(boolean attribute) {
    skipSpace();
    if (consume("*")) {
      if (attribute) {
        throw error("@* is not in the subset: name the attribute");
      }
      if (consume(":")) {
        return new NameTest(null, ncName());
      }
      return new NameTest(null, null);
    }
    if (text.startsWith("$", pos)) {
      throw error("variables are not in the subset");
    }
    int start = pos;
    String first = ncName();
    if (!consume(":")) {
      if (peekSpaceless() == '(' ) {
        pos = start;
        throw error("functions are not in the subset (only text() in a comparison)");
      }
      return new NameTest("", first);
    }
    String uri = namespaces.get(first);
    if (uri == null) {
      pos = start;
      throw error("the prefix " + first + " is not declared in the route's namespaces");
    }
    if (consume("*")) {
      if (attribute) {
        throw error("@" + first + ":* is not in the subset: name the attribute");
      }
      return new NameTest(uri, null);
    }
    return new NameTest(uri, ncName());
  }

  private String ncName() {
    int start = pos;
    while (pos < text.length() && isNameChar(text.charAt(pos), pos == start)) {
      pos++;
    }
    if (pos == start) {
      throw unexpected();
    }
    return text.substring(start, pos);
  }

  private static boolean isNameChar(char c, boolean first) {
    if (Character.isLetter(c) || c == '_' || c > 0x7f) {
      return true;
    }
    return !first && (Character.isDigit(c) || c == '-' || c == '.');
  }

  private boolean lookingAtName() {
    return pos < text.length() && isNameChar(text.charAt(pos), true);
  }

  private boolean lookingAtWord(String word) {
    return text.startsWith(word, pos) && (pos + word.length() == text.length()
        || !isNameChar(text.charAt(pos + word.length()), false));
  }

  private int wordEnd() {
    int i = pos;
    while (i < text.length() && isNameChar(text.charAt(i), i == pos)) {
      i++;
    }
    return i;
  }

  /** The first character after the word here and any space, or 0. */
  private char peekAfterWord() {
    int i = wordEnd();
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i < text.length() ? text.charAt(i) : 0;
  }

  private char peekSpaceless() {
    int i = pos;
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i < text.length() ? text.charAt(i) : 0;
  }

  private void expectWordCall(String word) {
    pos = wordEnd();
    skipSpace();
    consume("(");
    skipSpace();
    if (!consume(")")) {
      throw error(word + "() takes no arguments");
    }
  }

  private boolean lookingAt(String s) {
    return text.startsWith(s, pos);
  }

  private boolean consume(String s) {
    if (text.startsWith(s, pos)) {
      pos += s.length();
      return true;
    }
    return false;
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException unexpected() {
    return error(pos < text.length() ? "unexpected '" + text.charAt(pos) + "'"
        : "unexpected end");
  }

  private IllegalArgumentException error(String why) {
    return new IllegalArgumentException(quoted() + ": " + why + " (at character " + (pos + 1)
        + ")");
  }

  private String quoted() {
    return "body path \"" + text + "\"";
  }
}
