package dev.ferry.asn1;

import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * An element tree as a generic consumer reads it: each value by its type (integers whole,
 * booleans, NULLs, UTF-8 text, any other primitive as octets), each constructed element entered.
 * A SET OF is a {@link Constructed} of type {@link BerTags#SET}, written sorted under DER.
 */
sealed interface BerTree {

  /** Writes this tree with {@code w}. */
  void write(BerWriter w) throws IOException;

  /** An INTEGER of any size. */
  record Int(BigInteger value) implements BerTree {
    public void write(BerWriter w) throws IOException {
      w.writeInteger(BerTags.INTEGER, value);
    }
  }

  /** A BOOLEAN. */
  record Bool(boolean value) implements BerTree {
    public void write(BerWriter w) throws IOException {
      w.writeBoolean(value);
    }
  }

  /** A NULL. */
  record Null() implements BerTree {
    public void write(BerWriter w) throws IOException {
      w.writeNull();
    }
  }

  /** A UTF8String. */
  record Text(String value) implements BerTree {
    public void write(BerWriter w) throws IOException {
      w.writeUtf8String(value);
    }
  }

  /** Any other primitive element: an OCTET STRING or a tagged value. */
  record Octets(int type, ByteString value) implements BerTree {
    public void write(BerWriter w) throws IOException {
      w.writeOctetString(type, value);
    }
  }

  /**
   * A constructed element: a SEQUENCE, a SET OF ({@code setOf}: written sorted under DER), or a
   * constructed tagged value. Read back, only a universal SET is taken for a SET OF.
   */
  record Constructed(int type, boolean setOf, List<BerTree> children) implements BerTree {
    Constructed(int type, List<BerTree> children) {
      this(type, type == BerTags.SET, children);
    }

    public void write(BerWriter w) throws IOException {
      if (setOf) {
        w.writeStartSetOf(type);
      } else {
        w.writeStartSequence(type);
      }
      for (BerTree c : children) {
        c.write(w);
      }
      w.writeEndSequence();
    }
  }

  /** Reads every element left at the reader's level, to its end. */
  static List<BerTree> readAll(BerReader r) throws IOException {
    return readChildren(r, null);
  }

  /**
   * Reads the next element. With {@code stop} non-null, each constructed element is read only
   * up to a random child and then ended, leaving the rest to {@link BerReader#readEndSequence}.
   */
  static BerTree read(BerReader r, Random stop) throws IOException {
    int type = r.peekType();
    if (type == (BerTags.OCTET_STRING | BerTags.CONSTRUCTED)) {
      return new Octets(BerTags.OCTET_STRING, r.readOctetString()); // BER joins the segments
    }
    if (BerTags.isConstructed(type)) {
      r.readStartSequence(type);
      List<BerTree> children = readChildren(r, stop);
      r.readEndSequence();
      return new Constructed(type, children);
    }
    return switch (type) {
      case BerTags.INTEGER -> new Int(r.readBigInteger());
      case BerTags.BOOLEAN -> new Bool(r.readBoolean());
      case BerTags.NULL -> {
        r.readNull();
        yield new Null();
      }
      case BerTags.UTF8_STRING -> new Text(r.readUtf8String());
      default -> new Octets(type, r.readOctetString(type));
    };
  }

  private static List<BerTree> readChildren(BerReader r, Random stop) throws IOException {
    List<BerTree> children = new ArrayList<>();
    while (r.hasNextElement() && (stop == null || stop.nextInt(3) != 0)) {
      children.add(read(r, stop));
    }
    return children;
  }
}
