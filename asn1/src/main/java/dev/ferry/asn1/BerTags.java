package dev.ferry.asn1;

/**
 * Element types as ints, and the universal ones as constants.
 *
 * <p>A type packs an element's identifier: for tag numbers 0 to 30 it is the identifier octet
 * itself (class bits 8-7, constructed bit 6, number bits 5-1), so {@code 0x30} is a universal
 * constructed SEQUENCE and {@code 0x80} the context-specific primitive tag 0. For numbers from 31
 * to {@value #MAX_TAG_NUMBER} the low byte is the leading identifier octet (number bits all ones)
 * and the number sits in bits 8 and up.
 *
 * <pre>{@code
 * assert BerTags.type(BerTags.CONTEXT, true, 3) == 0xa3;
 * assert BerTags.number(BerTags.type(BerTags.APPLICATION, false, 100)) == 100;
 * }</pre>
 */
public final class BerTags {
  /** Tag class universal (bits 00). */
  public static final int UNIVERSAL = 0x00;
  /** Tag class application (bits 01). */
  public static final int APPLICATION = 0x40;
  /** Tag class context-specific (bits 10). */
  public static final int CONTEXT = 0x80;
  /** Tag class private (bits 11). */
  public static final int PRIVATE = 0xc0;
  /** The constructed bit of an identifier octet. */
  public static final int CONSTRUCTED = 0x20;
  /** Largest tag number a type can hold: {@value} (three base-128 octets). */
  public static final int MAX_TAG_NUMBER = (1 << 21) - 1;

  public static final int BOOLEAN = 0x01;
  public static final int INTEGER = 0x02;
  public static final int OCTET_STRING = 0x04;
  public static final int NULL = 0x05;
  public static final int ENUMERATED = 0x0a;
  public static final int UTF8_STRING = 0x0c;
  public static final int SEQUENCE = 0x30;
  public static final int SET = 0x31;

  private BerTags() {}

  /**
   * Returns the type of the given class, form and number.
   *
   * @throws IllegalArgumentException if {@code tagClass} is not one of the four class constants or
   *     {@code number} is outside {@code [0, MAX_TAG_NUMBER]}
   */
  public static int type(int tagClass, boolean constructed, int number) {
    if ((tagClass & ~0xc0) != 0) {
      throw new IllegalArgumentException("not a tag class: 0x" + Integer.toHexString(tagClass));
    }
    if (number < 0 || number > MAX_TAG_NUMBER) {
      throw new IllegalArgumentException("tag number out of range: " + number);
    }
    int lead = tagClass | (constructed ? CONSTRUCTED : 0);
    return number < 31 ? lead | number : lead | 0x1f | number << 8;
  }

  /** Returns the class bits of {@code type}: one of the four class constants. */
  public static int tagClass(int type) {
    return type & 0xc0;
  }

  /** Returns true if {@code type} is constructed. */
  public static boolean isConstructed(int type) {
    return (type & CONSTRUCTED) != 0;
  }

  /** Returns the tag number of {@code type}. */
  public static int number(int type) {
    return (type & 0x1f) == 0x1f ? type >>> 8 : type & 0x1f;
  }

  /** Returns the number of identifier octets {@code type} encodes to. */
  static int identifierOctets(int type) {
    int n = type >>> 8;
    if ((type & 0x1f) != 0x1f) {
      return 1;
    }
    return n < 1 << 7 ? 2 : n < 1 << 14 ? 3 : 4;
  }

  /** Returns a readable name such as {@code [CONTEXT 3] constructed}. */
  public static String toString(int type) {
    String cls = switch (tagClass(type)) {
      case UNIVERSAL -> "UNIVERSAL";
      case APPLICATION -> "APPLICATION";
      case CONTEXT -> "CONTEXT";
      default -> "PRIVATE";
    };
    return "[" + cls + " " + number(type) + "]" + (isConstructed(type) ? " constructed" : "")
        + " (0x" + Integer.toHexString(type) + ")";
  }
}
