package dev.ferry.broker.internal;

import java.util.List;
import java.util.Map;

/**
 * A compiled expression of the streamable XPath subset ({@link PathCompiler} makes one): steps
 * from the Body down, what the last step selects (the element, an attribute, its text nodes) and
 * the comparison its value is held to. Immutable; one {@link PathScan} per message reads it.
 *
 * <pre>
 *   //order[1]/symbol = 'IBM'
 *   step 0: DESCENDANT order [position 1]   step 1: CHILD symbol   target ELEMENT   = "IBM"
 * </pre>
 */
public final class PathProgram {
  /** How a step reaches its elements from the one before (the Body, for the first step). */
  public enum Axis { CHILD, DESCENDANT }

  /** What the expression's last step selects. */
  public enum Target { ELEMENT, ATTRIBUTE, TEXT }

  /** An element or attribute name test: null namespace or local name matches any. */
  public record NameTest(String namespace, String local) {
    boolean matches(String ns, String name) {
      return (local == null || local.equals(name))
          && (namespace == null || namespace.equals(ns == null ? "" : ns));
    }
  }

  /** A comparison of a node's string value with a literal, as XPath 1.0 compares them. */
  public record Comparison(String op, String text, double number, boolean numeric) {
    boolean test(String value) {
      if (!numeric) {
        return op.equals("=") == value.equals(text);
      }
      double v = number(value);
      return switch (op) {
        case "=" -> v == number;
        case "!=" -> v != number;
        case "<" -> v < number;
        case "<=" -> v <= number;
        case ">" -> v > number;
        default -> v >= number;
      };
    }

    /** XPath's number(): the trimmed text as a decimal, else NaN. */
    static double number(String value) {
      String s = value.strip();
      boolean digits = false;
      boolean dot = false;
      for (int i = s.startsWith("-") ? 1 : 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c >= '0' && c <= '9') {
          digits = true;
        } else if (c == '.' && !dot) {
          dot = true;
        } else {
          return Double.NaN;
        }
      }
      return digits ? Double.parseDouble(s) : Double.NaN;
    }

    /** How much of a value can change this comparison's outcome (more is "not equal"). */
    int relevantChars() {
      return numeric ? PathCompiler.MAX_NUMBER_CHARS : text.length() + 1;
    }
  }

  /** A step's test beyond its name, in the order written. */
  public sealed interface Predicate {}

  /**
   * {@code [n]}: the n-th of the siblings that passed the tests before it; {@code slot}: its
   * counter.
   */
  public record Position(int n, int slot) implements Predicate {}

  /** {@code [@name]} or {@code [@name op literal]} (a null comparison: the attribute is there). */
  public record AttributeTest(NameTest name, Comparison comparison) implements Predicate {}

  /**
   * {@code [. op literal]} (the element's string value) or, with {@code nodes},
   * {@code [text() op literal]} (any of its own text nodes): on the last step only.
   */
  public record TextTest(Comparison comparison, boolean nodes) implements Predicate {}

  /** One step: its axis, name test and predicates. */
  public record Step(Axis axis, NameTest name, List<Predicate> predicates) {
    public Step {
      predicates = List.copyOf(predicates);
    }

    /** The text test of this step, or null (only the last step has one). */
    TextTest textTest() {
      for (Predicate p : predicates) {
        if (p instanceof TextTest t) {
          return t;
        }
      }
      return null;
    }
  }

  private final String expression;
  private final Map<String, String> namespaces;
  private final Step[] steps;
  private final Target target;
  private final NameTest attribute;
  private final Comparison comparison;
  private final int slots;

  PathProgram(String expression, Map<String, String> namespaces, List<Step> steps,
      Target target, NameTest attribute, Comparison comparison, int slots) {
    this.expression = expression;
    this.namespaces = Map.copyOf(namespaces);
    this.steps = steps.toArray(Step[]::new);
    this.target = target;
    this.attribute = attribute;
    this.comparison = comparison;
    this.slots = slots;
  }

  public String expression() {
    return expression;
  }

  /** The prefixes the expression was compiled with. */
  public Map<String, String> namespaces() {
    return namespaces;
  }

  Step step(int k) {
    return steps[k];
  }

  int stepCount() {
    return steps.length;
  }

  Target target() {
    return target;
  }

  NameTest attribute() {
    return attribute;
  }

  /** The comparison of the selected value, or null: any selected node makes it true. */
  Comparison comparison() {
    return comparison;
  }

  /** Positional predicates in all steps: counters a scan keeps per open element. */
  int slots() {
    return slots;
  }

  /** A new scan of this program, for one message. */
  public PathScan newScan() {
    return new PathScan(this);
  }

  @Override
  public String toString() {
    return expression;
  }
}
