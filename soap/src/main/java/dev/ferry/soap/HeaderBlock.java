package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import java.util.Objects;
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
    String prefix = name.getPrefix().isEmpty() ? "h" : name.getPrefix();
    String qualified = prefix + ":" + name.getLocalPart();
    String xml = "<" + qualified + " xmlns:" + prefix + "=\"" + escape(name.getNamespaceURI())
        + "\">" + escape(text) + "</" + qualified + ">";
    return new HeaderBlock(name, false, null, text, null, ByteString.encodeUtf8(xml),
        ByteString.EMPTY);
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
