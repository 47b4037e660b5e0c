package dev.ferry.mime;

import dev.ferry.mime.internal.Base64DecodingInputStream;
import dev.ferry.mime.internal.QuotedPrintableDecodingInputStream;
import java.io.InputStream;
import java.util.Locale;

/** Content-Transfer-Encoding (RFC 2045 section 6): streaming decoders. */
public final class TransferEncodings {
  private TransferEncodings() {}

  /** Returns true if {@code encoding} (any case; null means none) leaves bytes as they are. */
  public static boolean isIdentity(String encoding) {
    if (encoding == null) {
      return true;
    }
    String e = encoding.trim().toLowerCase(Locale.ROOT);
    return e.equals("7bit") || e.equals("8bit") || e.equals("binary");
  }

  /**
   * Returns a stream that decodes {@code raw} from {@code encoding}: base64 and
   * quoted-printable are decoded as they stream; 7bit, 8bit, binary and null pass through.
   * Decoding errors are {@link MimeException}s at {@code baseOffset} plus the position in
   * {@code raw}, in {@code context}.
   *
   * @throws MimeException if the encoding is none of these
   */
  public static InputStream decode(String encoding, InputStream raw, long baseOffset,
      String context) throws MimeException {
    if (isIdentity(encoding)) {
      return raw;
    }
    return switch (encoding.trim().toLowerCase(Locale.ROOT)) {
      case "base64" -> new Base64DecodingInputStream(raw, baseOffset, context);
      case "quoted-printable" -> new QuotedPrintableDecodingInputStream(raw, baseOffset, context);
      default -> throw new MimeException("unsupported Content-Transfer-Encoding \"" + encoding
          + "\" (expected: 7bit, 8bit, binary, base64 or quoted-printable)", -1, context);
    };
  }
}
