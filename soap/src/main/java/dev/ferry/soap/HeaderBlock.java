package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.bytes.internal.BytesAccess;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.xml.namespace.QName;

/**
 * One SOAP header block: its name, {@code mustUnderstand} and role/actor, its text when it is a
 * simple element, and its XML bytes.
 *
 * <p>A block read from a message is a slice of that message's envelope (no copy); its XML may
 * use namespace prefixes declared on the Envelope or Header element, so it belongs in an
 * envelope that declares them (any envelope built from the same buffer does). A block made with
 * {@link #text} declares its own namespace.
 */
public final class HeaderBlock {
  private static final BytesAccess BYTES = BytesAccess.get();

  private final QName name;
  private final boolean mustUnderstand;
  private final String role;
  private final String text;
  private final String address;
  private final ByteString xml;
  private final ByteString leading;
  /** For a block read from an envelope: that envelope, and where leading + xml lie in it. */
  private final ByteString origin;
  private final int originStart;

  HeaderBlock(QName name, boolean mustUnderstand, String role, String text, String address,
      ByteString xml, ByteString leading) {
    this(name, mustUnderstand, role, text, address, xml, leading, null, -1);
  }

  HeaderBlock(QName name, boolean mustUnderstand, String role, String text, String address,
      ByteString xml, ByteString leading, ByteString origin, int originStart) {
    this.name = name;
    this.mustUnderstand = mustUnderstand;
    this.role = role;
    this.text = text;
    this.address = address;
    this.xml = xml;
    this.leading = leading;
    this.origin = origin;
    this.originStart = originStart;
  }

  /**
   * Returns a new block {@code <p:local xmlns:p="ns">text</p:local>}; the prefix is the
   * QName's, or {@code h} if it has none.
   */
  public static HeaderBlock text(QName name, String text) {
    Objects.requireNonNull(text, "text");
    TextTags tags = TextTags.of(name);
    Memo last = tags.last;
    if (last != null && last.text.equals(text)) {
      return last.block; // immutable: the same block serves every message
    }
    HeaderBlock block = encode(name, tags, text);
    tags.last = new Memo(text, block);
    return block;
  }

  private static HeaderBlock encode(QName name, TextTags tags, String text) {
    int size = tags.start.length + escapedUtf8Length(text) + tags.end.length;
    ByteStringBuilder xml = new ByteStringBuilder(size);
    byte[] a = BYTES.reserve(xml, size); // written once, in place: no per-byte appends
    System.arraycopy(tags.start, 0, a, 0, tags.start.length);
    int p = putEscapedUtf8(text, a, tags.start.length);
    System.arraycopy(tags.end, 0, a, p, tags.end.length);
    BYTES.commit(xml, size);
    return new HeaderBlock(name, false, null, text, null, xml.toByteString(), ByteString.EMPTY);
  }

  /**
   * The start and end tags of a text block, encoded once per name: a broker sets the same few
   * headers on every message, and building their tags from strings was most of what a header
   * change cost at 1 KiB.
   */
  private static final class TextTags {
    /** Names seen beyond this many are encoded each time (arbitrary names must not grow it). */
    private static final int MAX_CACHED = 256;
    private static final Map<QName, TextTags> CACHE = new ConcurrentHashMap<>();

    private final String prefix;
    private final byte[] start;
    private final byte[] end;
    /**
     * The last block made with these tags: a broker sets the same wsa:To or Action on message
     * after message. Racy on purpose; a Memo is immutable, so a thread sees one whole or none.
     */
    private Memo last;

    private TextTags(String prefix, byte[] start, byte[] end) {
      this.prefix = prefix;
      this.start = start;
      this.end = end;
    }

    static TextTags of(QName name) {
      TextTags tags = CACHE.get(name);
      // QName.equals ignores the prefix, which the tags spell out
      if (tags == null || !tags.prefix.equals(name.getPrefix())) {
        tags = encode(name);
        if (CACHE.size() < MAX_CACHED) {
          CACHE.putIfAbsent(name, tags);
        }
      }
      return tags;
    }

    private static TextTags encode(QName name) {
      String prefix = name.getPrefix().isEmpty() ? "h" : name.getPrefix();
      String qualified = prefix + ":" + name.getLocalPart();
      String start = "<" + qualified + " xmlns:" + prefix + "=\""
          + escape(name.getNamespaceURI()) + "\">";
      return new TextTags(name.getPrefix(), start.getBytes(StandardCharsets.UTF_8),
          ("</" + qualified + ">").getBytes(StandardCharsets.UTF_8));
    }
  }

  private record Memo(String text, HeaderBlock block) {}

  /** Returns how many bytes {@link #putEscapedUtf8} writes for {@code s}. */
  static int escapedUtf8Length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += switch (c) {
          case '&' -> 5;
          case '<', '>' -> 4;
          case '"' -> 6;
          default -> 1;
        };
      } else if (c < 0x800) {
        n += 2;
      } else if (isPairAt(s, i)) {
        n += 4;
        i++;
      } else {
        n += Character.isSurrogate(c) ? 1 : 3;
      }
    }
    return n;
  }

  /**
   * Writes {@code s} XML-escaped (as {@link #escape}) and UTF-8 encoded into {@code a} at
   * {@code p}, in one pass and without an intermediate string; a lone surrogate becomes
   * {@code ?}, as {@link String#getBytes} makes it. Returns the index after the last byte.
   */
  static int putEscapedUtf8(String s, byte[] a, int p) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        p = switch (c) {
          case '&' -> putAscii("&amp;", a, p);
          case '<' -> putAscii("&lt;", a, p);
          case '>' -> putAscii("&gt;", a, p);
          case '"' -> putAscii("&quot;", a, p);
          default -> {
            a[p] = (byte) c;
            yield p + 1;
          }
        };
      } else if (c < 0x800) {
        a[p++] = (byte) (0xC0 | c >> 6);
        a[p++] = (byte) (0x80 | c & 0x3F);
      } else if (isPairAt(s, i)) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        a[p++] = (byte) (0xF0 | cp >> 18);
        a[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
        a[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
        a[p++] = (byte) (0x80 | cp & 0x3F);
      } else if (Character.isSurrogate(c)) {
        a[p++] = '?';
      } else {
        a[p++] = (byte) (0xE0 | c >> 12);
        a[p++] = (byte) (0x80 | c >> 6 & 0x3F);
        a[p++] = (byte) (0x80 | c & 0x3F);
      }
    }
    return p;
  }

  private static boolean isPairAt(String s, int i) {
    return Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length()
        && Character.isLowSurrogate(s.charAt(i + 1));
  }

  private static int putAscii(String ascii, byte[] a, int p) {
    for (int i = 0; i < ascii.length(); i++) {
      a[p++] = (byte) ascii.charAt(i);
    }
    return p;
  }

  /**
   * Returns a new block whose element is {@code xml}, taken as it is: it must be one
   * well-formed element named {@code name} that declares every namespace it uses.
   */
  public static HeaderBlock element(QName name, ByteString xml) {
    return new HeaderBlock(name, false, null, null, null, xml, ByteString.EMPTY);
  }

  public QName name() {
    return name;
  }

  /** Returns true if the block's mustUnderstand attribute is 1 or true. */
  public boolean mustUnderstand() {
    return mustUnderstand;
  }

  /** Returns the role (SOAP 1.2) or actor (SOAP 1.1) the block targets, or null. */
  public String role() {
    return role;
  }

  /** Returns the text of a block that holds only text, or null. */
  public String text() {
    return text;
  }

  /** Returns the wsa:Address of an endpoint-reference block (ReplyTo, FaultTo, From), or null. */
  public String address() {
    return address;
  }

  /** Returns the element's XML, from its start tag to its end tag. */
  public ByteString xml() {
    return xml;
  }

  /** Returns the white space that preceded the block in the message it was read from. */
  ByteString leading() {
    return leading;
  }

  /** Returns this block preceded by {@code whitespace} (to keep a replaced block's layout). */
  HeaderBlock withLeading(ByteString whitespace) {
    return new HeaderBlock(name, mustUnderstand, role, text, address, xml, whitespace);
  }

  /** Returns where this block (with its leading white space) starts in {@code envelope}, or -1. */
  int startIn(ByteString envelope) {
    return origin == envelope ? originStart : -1;
  }

  static String escape(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String rep = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        default -> null;
      };
      if (rep != null && b == null) {
        b = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (b != null) {
        b.append(rep != null ? rep : String.valueOf(c));
      }
    }
    return b == null ? s : b.toString();
  }

  @Override
  public String toString() {
    return "HeaderBlock[" + name + (text != null ? " = " + text : "") + "]";
  }
}
