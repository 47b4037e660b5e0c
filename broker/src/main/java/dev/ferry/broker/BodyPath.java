package dev.ferry.broker;

import dev.ferry.broker.internal.PathCompiler;
import dev.ferry.broker.internal.PathProgram;
import java.util.Map;
import java.util.Objects;

/**
 * A condition on what a request's Body says: an expression of the streamable subset of XPath
 * 1.0, evaluated as the Body is read, with no tree built, stopping as soon as the outcome is
 * known. The Body is the context: {@code /buyStocks/order} (or {@code buyStocks/order}) starts
 * at its children, {@code //order} anywhere below it.
 *
 * <pre>{@code
 * BodyPath ibm = BodyPath.compile("//q:order[1]/q:symbol = 'IBM'", Map.of("q", "urn:quotes"));
 * }</pre>
 *
 * <p>The subset: child steps and {@code //}; name tests with declared prefixes,
 * {@code prefix:*}, {@code *:local} and {@code *}; positional predicates ({@code [1]});
 * attribute tests ({@code [@type]}, {@code [@type = 'limit']}); a last step of
 * {@code /@name} or {@code /text()}; a text test on the last step ({@code [. = 'IBM']}); and one
 * comparison of the selected nodes with a literal ({@code = != } for text, also
 * {@code < <= > >=} for numbers), true if any selected node's value passes, as XPath has it. An
 * unprefixed name has no namespace, as in XPath 1.0. Anything else (axes that look back or
 * sideways, {@code last()}, predicates on a child's value, functions, unions, {@code and},
 * {@code or}, variables) is refused by {@link #compile}, saying why. Immutable.
 */
public final class BodyPath {
  private final PathProgram program;

  private BodyPath(PathProgram program) {
    this.program = program;
  }

  /**
   * Compiles {@code expression}, whose prefixes {@code namespaces} declares (prefix to URI).
   *
   * @throws IllegalArgumentException quoting the expression and naming the part outside the
   *     subset or malformed, why, and at which character
   */
  public static BodyPath compile(String expression, Map<String, String> namespaces) {
    return new BodyPath(PathCompiler.compile(Objects.requireNonNull(expression),
        Map.copyOf(namespaces)));
  }

  public String expression() {
    return program.expression();
  }

  /** The prefixes the expression uses, and their namespaces. */
  public Map<String, String> namespaces() {
    return program.namespaces();
  }

  PathProgram program() {
    return program;
  }

  @Override
  public String toString() {
    return program.expression();
  }
}
