package dev.ferry.ldap;

import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerLimits;
import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * The value of the simple paged results control of RFC 2696: a page size (in a request) or an
 * estimate of the total (in a response), and the server's opaque cookie, empty on the first
 * request and in the last response.
 *
 * <pre>{@code
 * Control c = new PagedResults(100, ByteString.EMPTY).toControl(true);
 * assert c.oid().equals(PagedResults.OID);
 * assert PagedResults.from(c).size() == 100;
 * }</pre>
 */
public record PagedResults(int size, ByteString cookie) {
  /** The control's OID: {@value}. */
  public static final String OID = "1.2.840.113556.1.4.319";

  public PagedResults {
    if (size < 0) {
      throw new IllegalArgumentException("size < 0: " + size);
    }
    Objects.requireNonNull(cookie, "cookie");
  }

  /** Returns the control carrying this value. */
  public Control toControl(boolean critical) {
    try {
      ByteString value = BerWriter.encode(w -> {
        w.writeStartSequence();
        w.writeInteger(size);
        w.writeOctetString(cookie);
        w.writeEndSequence();
      });
      return new Control(OID, critical, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Decodes the value of {@code control}; the cookie is a slice of it.
   *
   * @throws IllegalArgumentException if the control is not a paged results control
   * @throws BerException if its value is malformed (offsets count from the value's start)
   */
  public static PagedResults from(Control control) throws BerException {
    if (!OID.equals(control.oid())) {
      throw new IllegalArgumentException("not a paged results control: " + control.oid());
    }
    if (control.value() == null) {
      throw new BerException("paged results control without a value", 0, "pagedResults");
    }
    try {
      BerReader r = BerReader.of(control.value(), BerRules.LDAP, BerLimits.DEFAULTS);
      r.readStartSequence();
      int size = r.readInteger();
      ByteString cookie = r.readOctetString();
      r.readEndSequence();
      if (r.hasNextElement()) {
        throw new BerException("bytes after the paged results value", r.byteOffset(), null);
      }
      return new PagedResults(Math.max(size, 0), cookie);
    } catch (BerException e) {
      throw e;
    } catch (IOException e) {
      throw new BerException(e.getMessage(), -1, "pagedResults", e);
    }
  }
}
