package dev.ferry.broker.internal;

import dev.ferry.soap.SettingValues;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A mapping of a YAML configuration file, read with the line each key is on, so that every
 * mistake names its line and its path ({@code line 12: routes[2].body: ...}). The document is
 * composed, never constructed: no tag other than YAML's plain ones is accepted, so a file cannot
 * make the parser build objects. Immutable.
 */
public final class YamlSection {
  private static final Set<Tag> PLAIN = Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL,
      Tag.MAP, Tag.SEQ);

  private final String where;
  private final int line;
  private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

  private YamlSection(MappingNode node, String where) {
    this.where = where;
    this.line = lineOf(node);
    for (NodeTuple t : node.getValue()) {
      if (!(t.getKeyNode() instanceof ScalarNode k)) {
        throw new IllegalArgumentException(at(lineOf(t.getKeyNode()), where)
            + "a key must be text");
      }
      if (entries.put(k.getValue(), t) != null) {
        throw new IllegalArgumentException(at(lineOf(k), path(k.getValue())) + "given twice");
      }
    }
  }

  /**
   * Reads a document whose root is a mapping.
   *
   * @throws IllegalArgumentException if it is malformed YAML, uses a tag, or is no mapping
   */
  public static YamlSection parse(String yaml) {
    Node root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(yaml));
    } catch (YAMLException e) {
      throw new IllegalArgumentException("malformed YAML: " + e.getMessage(), e);
    }
    if (root == null) {
      throw new IllegalArgumentException("the document is empty");
    }
    checkTags(root);
    if (!(root instanceof MappingNode m)) {
      throw new IllegalArgumentException(at(lineOf(root), "the document")
          + "expected a mapping");
    }
    return new YamlSection(m, "");
  }

  private static void checkTags(Node n) {
    if (!PLAIN.contains(n.getTag())) {
      throw new IllegalArgumentException("line " + lineOf(n) + ": the tag " + n.getTag()
          + " is not accepted (plain YAML values only)");
    }
    if (n instanceof MappingNode m) {
      for (NodeTuple t : m.getValue()) {
        checkTags(t.getKeyNode());
        checkTags(t.getValueNode());
      }
    } else if (n instanceof SequenceNode s) {
      s.getValue().forEach(YamlSection::checkTags);
    }
  }

  private static int lineOf(Node n) {
    return n.getStartMark() == null ? 0 : n.getStartMark().getLine() + 1;
  }

  private static String at(int line, String where) {
    return "line " + line + ": " + (where.isEmpty() ? "" : where + ": ");
  }

  /** The path of {@code key} in this section, as errors name it. */
  public String path(String key) {
    return where.isEmpty() ? key : where + "." + key;
  }

  /** Where this section is ({@code routes[2]}), empty for the document. */
  public String where() {
    return where;
  }

  /** The line this section starts on (1-based). */
  public int line() {
    return line;
  }

  /** An error about this section: its line and path, then {@code message}. */
  public IllegalArgumentException error(String message) {
    return new IllegalArgumentException(at(line, where) + message);
  }

  /** An error about {@code key}'s value: its line and path, then {@code message}. */
  public IllegalArgumentException error(String key, String message) {
    NodeTuple t = entries.get(key);
    return new IllegalArgumentException(at(t == null ? line : lineOf(t.getKeyNode()),
        path(key)) + message);
  }

  /** Refuses a key not in {@code known}, naming it and listing the known ones. */
  public void checkKeys(Set<String> known) {
    for (String k : entries.keySet()) {
      if (!known.contains(k)) {
        throw error(k, "unknown key \"" + k + "\" (known: " + new TreeSet<>(known) + ")");
      }
    }
  }

  /** Whether {@code key} is given (null counts as given). */
  public boolean has(String key) {
    return entries.containsKey(key);
  }

  private Node node(String key) {
    NodeTuple t = entries.get(key);
    return t == null ? null : t.getValueNode();
  }

  /** Whether {@code key}'s value is a list. */
  public boolean isList(String key) {
    return node(key) instanceof SequenceNode;
  }

  /** Whether {@code key}'s value is a mapping. */
  public boolean isSection(String key) {
    return node(key) instanceof MappingNode;
  }

  /**
   * {@code key}'s value as text (a number or a boolean as written), stripped; null if absent.
   *
   * @throws IllegalArgumentException if required and absent, or not a non-blank scalar
   */
  public String text(String key, boolean required) {
    Node n = node(key);
    if (n == null || n.getTag() == Tag.NULL) {
      if (required) {
        throw error(key, "missing");
      }
      return null;
    }
    if (!(n instanceof ScalarNode s) || s.getValue().isBlank()) {
      throw error(key, "expected text, got " + describe(n));
    }
    return s.getValue().strip();
  }

  /** {@code key}'s duration ({@code 30s}, {@code 500ms}, {@code 2m}), or {@code otherwise}. */
  public Duration duration(String key, Duration otherwise) {
    String v = text(key, false);
    if (v == null) {
      return otherwise;
    }
    try {
      return SettingValues.duration(v, "value");
    } catch (IllegalArgumentException e) {
      throw error(key, "expected a duration such as 30s, got " + v);
    }
  }

  /** {@code key}'s whole number in {@code [min, max]}, or {@code otherwise}. */
  public int integer(String key, int otherwise, int min, int max) {
    String v = text(key, false);
    if (v == null) {
      return otherwise;
    }
    try {
      long n = Long.parseLong(v.replace("_", ""));
      if (n >= min && n <= max) {
        return (int) n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw error(key, "expected a whole number from " + min + " to " + max + ", got " + v);
  }

  /** {@code key}'s number, at least {@code min}, or {@code otherwise}. */
  public double number(String key, double otherwise, double min) {
    String v = text(key, false);
    if (v == null) {
      return otherwise;
    }
    try {
      double d = Double.parseDouble(v);
      if (d >= min && Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw error(key, "expected a number of at least " + min + ", got " + v);
  }

  /** {@code key}'s boolean, or {@code otherwise}. */
  public boolean bool(String key, boolean otherwise) {
    String v = text(key, false);
    if (v == null) {
      return otherwise;
    }
    return switch (v) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw error(key, "expected true or false, got " + v);
    };
  }

  /** {@code key}'s mapping, or null if absent. */
  public YamlSection section(String key) {
    Node n = node(key);
    if (n == null || n.getTag() == Tag.NULL) {
      return null;
    }
    if (!(n instanceof MappingNode m)) {
      throw error(key, "expected a mapping, got " + describe(n));
    }
    return new YamlSection(m, path(key));
  }

  /** {@code key}'s list of mappings ({@code key[0]}, ...), or null if absent. */
  public List<YamlSection> sections(String key) {
    List<Node> items = list(key);
    if (items == null) {
      return null;
    }
    List<YamlSection> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String at = path(key) + "[" + i + "]";
      if (!(items.get(i) instanceof MappingNode m)) {
        throw new IllegalArgumentException(at(lineOf(items.get(i)), at) + "expected a mapping,"
            + " got " + describe(items.get(i)));
      }
      out.add(new YamlSection(m, at));
    }
    return out;
  }

  /**
   * {@code key}'s list whose items are texts (as {@code String}) or mappings (as
   * {@code YamlSection}), or null if absent.
   */
  public List<Object> items(String key) {
    List<Node> items = list(key);
    if (items == null) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      Node n = items.get(i);
      String at = path(key) + "[" + i + "]";
      if (n instanceof MappingNode m) {
        out.add(new YamlSection(m, at));
      } else if (n instanceof ScalarNode v && !v.getValue().isBlank()) {
        out.add(v.getValue().strip());
      } else {
        throw new IllegalArgumentException(at(lineOf(n), at) + "expected text or a mapping,"
            + " got " + describe(n));
      }
    }
    return out;
  }

  /** The names of this section's keys, in order. */
  public List<String> keys() {
    return List.copyOf(entries.keySet());
  }

  /** {@code key}'s list of texts, or null if absent; a single text is a list of one. */
  public List<String> texts(String key) {
    Node n = node(key);
    if (n instanceof ScalarNode && n.getTag() != Tag.NULL) {
      return List.of(text(key, true));
    }
    List<Node> items = list(key);
    if (items == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (Node item : items) {
      if (!(item instanceof ScalarNode s) || s.getValue().isBlank()) {
        throw error(key, "expected a list of texts, got " + describe(item) + " in it");
      }
      out.add(s.getValue().strip());
    }
    return out;
  }

  private List<Node> list(String key) {
    Node n = node(key);
    if (n == null || n.getTag() == Tag.NULL) {
      return null;
    }
    if (!(n instanceof SequenceNode s)) {
      throw error(key, "expected a list, got " + describe(n));
    }
    return s.getValue();
  }

  /** {@code key}'s mapping of texts to texts (such as prefixes to namespaces), or null. */
  public Map<String, String> textMap(String key) {
    YamlSection s = section(key);
    if (s == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : s.entries.keySet()) {
      out.put(k, s.text(k, true));
    }
    return out;
  }

  /**
   * This section as plain Java values (maps, lists, strings, longs, doubles, booleans), for a
   * part of the file another module reads, such as a {@code MessageGuardFactory}'s.
   */
  public Map<String, Object> plain() {
    Map<String, Object> out = new LinkedHashMap<>();
    entries.forEach((k, t) -> out.put(k, plain(t.getValueNode())));
    return out;
  }

  private static Object plain(Node n) {
    if (n instanceof MappingNode m) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (NodeTuple t : m.getValue()) {
        out.put(((ScalarNode) t.getKeyNode()).getValue(), plain(t.getValueNode()));
      }
      return out;
    }
    if (n instanceof SequenceNode s) {
      return s.getValue().stream().map(YamlSection::plain).toList();
    }
    String v = ((ScalarNode) n).getValue();
    Tag tag = n.getTag();
    try {
      if (tag == Tag.NULL) {
        return null;
      } else if (tag == Tag.INT) {
        return Long.parseLong(v.replace("_", ""));
      } else if (tag == Tag.FLOAT) {
        return Double.parseDouble(v.replace("_", ""));
      } else if (tag == Tag.BOOL) {
        return v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes")
            || v.equalsIgnoreCase("on");
      }
    } catch (NumberFormatException e) {
      return v; // written in a form Java does not read (0x1f, .inf): left as text
    }
    return v;
  }

  private static String describe(Node n) {
    if (n instanceof MappingNode) {
      return "a mapping";
    }
    if (n instanceof SequenceNode) {
      return "a list";
    }
    return ((ScalarNode) n).getValue().isBlank() ? "nothing" : ((ScalarNode) n).getValue();
  }
}
