package dev.ferry.ldap;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;
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
    return ControlValues.encode(OID, critical, w -> {
      w.writeStartSequence();
      w.writeInteger(size);
      w.writeOctetString(cookie);
      w.writeEndSequence();
    });
  }

  /**
   * Decodes the value of {@code control}; the cookie is a slice of it.
   *
   * @throws IllegalArgumentException if the control is not a paged results control
   * @throws BerException if its value is malformed (offsets count from the value's start)
   */
  public static PagedResults from(Control control) throws BerException {
    return ControlValues.decode(control, OID, "paged results", r -> {
      r.readStartSequence();
      int size = r.readInteger();
      ByteString cookie = r.readOctetString();
      r.readEndSequence();
      return new PagedResults(Math.max(size, 0), cookie);
    });
  }
}
