package dev.ferry.broker.internal;

import dev.ferry.broker.internal.PathProgram.AttributeTest;
import dev.ferry.broker.internal.PathProgram.Axis;
import dev.ferry.broker.internal.PathProgram.Comparison;
import dev.ferry.broker.internal.PathProgram.NameTest;
import dev.ferry.broker.internal.PathProgram.Position;
import dev.ferry.broker.internal.PathProgram.Predicate;
import dev.ferry.broker.internal.PathProgram.Step;
import dev.ferry.broker.internal.PathProgram.TextTest;
import java.util.Arrays;
import javax.xml.stream.XMLStreamReader;

/**
 * One evaluation of a {@link PathProgram} over the events of a Body as a StAX reader meets
 * them: no tree is built, and the outcome is known ({@link #decided}) as soon as a selected node
 * makes the expression true, or no element still open can lead to one.
 *
 * <p>Per open element (a frame, by depth; the Body is depth 0) the scan keeps which steps its
 * children may match (a bit per step: the step after one this element matched, and every
 * {@code //} step an ancestor had), and a counter per positional predicate, so that {@code [n]}
 * counts among this element's children. A selected element whose value is compared collects its
 * text, no more of it than the comparison can use. Not thread-safe; one per message.
 *
 * <pre>
 *   //order[1]/symbol = 'IBM'     Body(0): {0}  buyStocks(1): {0}  order(2): {0, 1}
 *                                 symbol(3): selected, text collected to its end
 * </pre>
 */
public final class PathScan {
  private final PathProgram program;
  private final int last;
  private final int cap;
  private long[] active = new long[16];
  private int[][] counters = new int[16][];
  private StringBuilder[] captured = new StringBuilder[16];
  private boolean[] capturing = new boolean[16];
  private boolean[] textSelected = new boolean[16]; // text() selected: its own text nodes
  private boolean[] pending = new boolean[16]; // selected, decided at its end
  private boolean[] nodePassed = new boolean[16]; // one of its text nodes passed [text() ...]
  private int depth = -1;
  private int pendingCount;
  private int capturingCount;
  private final StringBuilder textNode = new StringBuilder();
  private int textNodeDepth = -1; // whose text node is being read, or -1
  private boolean result;
  private boolean decided;

  PathScan(PathProgram program) {
    this.program = program;
    this.last = program.stepCount() - 1;
    int relevant = 0;
    if (program.comparison() != null) {
      relevant = program.comparison().relevantChars();
    }
    TextTest t = program.step(last).textTest();
    if (t != null) {
      relevant = Math.max(relevant, t.comparison().relevantChars());
    }
    this.cap = relevant;
  }

  /** Whether the outcome is known: no later event can change {@link #result}. */
  public boolean decided() {
    return decided;
  }

  /** Whether the expression is true of what was read (final once {@link #decided}). */
  public boolean result() {
    return result;
  }

  /** At a START_ELEMENT of {@code r}; the first is the Body's, the context. */
  public void start(XMLStreamReader r) {
    if (decided) {
      return;
    }
    endTextNode();
    int parent = depth++;
    grow();
    active[depth] = 0;
    capturing[depth] = false;
    textSelected[depth] = false;
    pending[depth] = false;
    nodePassed[depth] = false;
    if (program.slots() > 0) {
      Arrays.fill(counters[depth], 0);
    }
    if (parent < 0) {
      active[0] = 1L; // the Body: its children may match the first step
      return;
    }
    for (long bits = active[parent]; bits != 0; bits &= bits - 1) {
      int k = Long.numberOfTrailingZeros(bits);
      Step step = program.step(k);
      if (step.axis() == Axis.DESCENDANT) {
        active[depth] |= 1L << k; // a // step goes on looking below
      }
      if (step.name().matches(r.getNamespaceURI(), r.getLocalName())
          && passes(step, parent, r)) {
        if (k < last) {
          active[depth] |= 1L << (k + 1);
        } else {
          select(r);
        }
      }
    }
  }

  /** The predicates of {@code step} before any text test, in order, counting positions. */
  private boolean passes(Step step, int parent, XMLStreamReader r) {
    for (Predicate p : step.predicates()) {
      switch (p) {
        case Position pos -> {
          if (++counters[parent][pos.slot()] != pos.n()) {
            return false;
          }
        }
        case AttributeTest a -> {
          String v = attribute(r, a.name());
          if (v == null || a.comparison() != null && !a.comparison().test(v)) {
            return false;
          }
        }
        case TextTest t -> {
          // decided at the element's end (no position may follow it)
        }
      }
    }
    return true;
  }

  /** The element at {@link #depth} is selected by the last step. */
  private void select(XMLStreamReader r) {
    Comparison c = program.comparison();
    switch (program.target()) {
      case ATTRIBUTE -> {
        String v = attribute(r, program.attribute());
        if (v != null && (c == null || c.test(v))) {
          decide(true);
        }
      }
      case TEXT -> textSelected[depth] = true;
      case ELEMENT -> {
        TextTest t = program.step(last).textTest();
        if (c == null && t == null) {
          decide(true);
          return;
        }
        pending[depth] = true;
        pendingCount++;
        if (c != null || !t.nodes()) {
          capturing[depth] = true;
          capturingCount++;
          if (captured[depth] == null) {
            captured[depth] = new StringBuilder();
          }
          captured[depth].setLength(0);
        }
      }
    }
  }

  private static String attribute(XMLStreamReader r, NameTest name) {
    for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
      if (name.matches(r.getAttributeNamespace(i), r.getAttributeLocalName(i))) {
        return r.getAttributeValue(i);
      }
    }
    return null;
  }

  /** At character data (text, CDATA, white space) of the element at the current depth. */
  public void text(XMLStreamReader r) {
    if (decided || depth < 0 || capturingCount == 0 && !readsTextNodes(depth)) {
      return;
    }
    if (readsTextNodes(depth)) {
      textNodeDepth = depth;
      append(textNode, r);
    }
    if (capturingCount > 0) {
      for (int d = 0; d <= depth; d++) {
        if (capturing[d]) {
          append(captured[d], r);
        }
      }
    }
  }

  /** Appends {@code r}'s text to {@code b}, no more than can change a comparison, plus one. */
  private void append(StringBuilder b, XMLStreamReader r) {
    int room = cap + 1 - b.length();
    if (room > 0) {
      b.append(r.getTextCharacters(), r.getTextStart(), Math.min(room, r.getTextLength()));
    }
  }

  /** At a comment or processing instruction: it ends a text node. */
  public void boundary() {
    endTextNode();
  }

  /** At an END_ELEMENT. */
  public void end() {
    if (decided) {
      return;
    }
    endTextNode();
    if (pending[depth]) {
      boolean value = capturing[depth];
      pending[depth] = false;
      pendingCount--;
      if (value) {
        capturing[depth] = false;
        capturingCount--;
      }
      if (passes(depth, value)) {
        decide(true);
        return;
      }
    }
    if (--depth < 0 || !live()) {
      decide(result);
    }
  }

  /** Whether the element at {@code d} compares its own text nodes (one is being read). */
  private boolean readsTextNodes(int d) {
    return textSelected[d] || pending[d] && textNodes();
  }

  private boolean textNodes() {
    TextTest t = program.step(last).textTest();
    return t != null && t.nodes();
  }

  private void endTextNode() {
    int d = textNodeDepth;
    if (d < 0) {
      return;
    }
    textNodeDepth = -1;
    String v = bounded(textNode);
    textNode.setLength(0);
    if (textSelected[d]) {
      Comparison c = program.comparison();
      if (c == null || c.test(v)) {
        decide(true);
      }
    }
    if (pending[d] && textNodes() && program.step(last).textTest().comparison().test(v)) {
      nodePassed[d] = true;
    }
  }

  /**
   * At the end of a pending element at {@code d}: whether it passes its text test and the
   * comparison; {@code value}: its string value was collected (both need it but text()).
   */
  private boolean passes(int d, boolean value) {
    TextTest t = program.step(last).textTest();
    String v = value ? bounded(captured[d]) : null;
    if (t != null && !(t.nodes() ? nodePassed[d] : t.comparison().test(v))) {
      return false;
    }
    return program.comparison() == null || program.comparison().test(v);
  }

  /**
   * The collected text; if it grew past what a comparison can use, with a character no literal
   * or number ends in, so that it equals none and is no number.
   */
  private String bounded(StringBuilder b) {
    return b.length() > cap ? b.substring(0, cap) + '\uffff' : b.toString();
  }

  /** Whether an open element can still lead to a selected node. */
  private boolean live() {
    if (pendingCount > 0 || textSelected[depth]) {
      return true;
    }
    for (int d = 0; d <= depth; d++) {
      for (long bits = active[d]; bits != 0; bits &= bits - 1) {
        int k = Long.numberOfTrailingZeros(bits);
        if (program.step(k).axis() == Axis.DESCENDANT || !exhausted(d, k)) {
          return true;
        }
      }
      if (textSelected[d]) {
        return true;
      }
    }
    return false;
  }

  /** Whether no later child of the element at {@code d} can pass step {@code k}'s positions. */
  private boolean exhausted(int d, int k) {
    for (Predicate p : program.step(k).predicates()) {
      if (p instanceof Position pos && counters[d][pos.slot()] >= pos.n()) {
        return true;
      }
    }
    return false;
  }

  private void decide(boolean value) {
    result = value;
    decided = true;
  }

  private void grow() {
    if (depth < active.length) {
      if (program.slots() > 0 && counters[depth] == null) {
        counters[depth] = new int[program.slots()];
      }
      return;
    }
    int n = active.length * 2;
    active = Arrays.copyOf(active, n);
    counters = Arrays.copyOf(counters, n);
    captured = Arrays.copyOf(captured, n);
    capturing = Arrays.copyOf(capturing, n);
    textSelected = Arrays.copyOf(textSelected, n);
    pending = Arrays.copyOf(pending, n);
    nodePassed = Arrays.copyOf(nodePassed, n);
    grow();
  }
}
