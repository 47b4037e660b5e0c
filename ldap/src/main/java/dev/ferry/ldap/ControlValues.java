package dev.ferry.ldap;

import dev.ferry.asn1.BerEncoder;
import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerLimits;
import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Encodes and decodes a control's BER value, with the errors every control gives alike. */
final class ControlValues {
  /** Reads a control's value. */
  interface Decoder<T> {
    T read(BerReader r) throws IOException;
  }

  private ControlValues() {}

  /** Returns a control whose value {@code encoder} writes. */
  static Control encode(String oid, boolean critical, BerEncoder encoder) {
    try {
      return new Control(oid, critical, BerWriter.encode(encoder));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Decodes the value of a control that must have {@code oid}; {@code what} names it in errors.
   *
   * @throws IllegalArgumentException if the control has another OID
   * @throws BerException if it has no value, its value is malformed or bytes follow it
   */
  static <T> T decode(Control control, String oid, String what, Decoder<T> decoder)
      throws BerException {
    if (!oid.equals(control.oid())) {
      throw new IllegalArgumentException("not a " + what + " control: " + control.oid());
    }
    ByteString value = control.value();
    if (value == null) {
      throw new BerException(what + " control without a value", 0, what);
    }
    try {
      BerReader r = BerReader.of(value, BerRules.LDAP, BerLimits.DEFAULTS);
      T decoded = decoder.read(r);
      if (r.hasNextElement()) {
        throw new BerException("bytes after the " + what + " value", r.byteOffset(), null);
      }
      return decoded;
    } catch (BerException e) {
      throw e;
    } catch (IOException e) {
      throw new BerException(e.getMessage(), -1, what, e);
    }
  }
}
