package dev.ferry.soap.internal;

import dev.ferry.bytes.ByteString;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings an envelope in another encoding to UTF-8, the only one the index works in (its slices
 * are byte ranges). UTF-8 and US-ASCII envelopes, nearly all of them, pass without a copy; any
 * other is decoded once and encoded as UTF-8, its XML declaration saying so.
 *
 * <p>The encoding is found as RFC 7303 says: a byte order mark, else the transport's charset
 * parameter, else the XML declaration, else UTF-8. A UTF-16 or UTF-32 envelope without a mark
 * is recognised by the zero bytes of its first character ({@code <}), as the XML spec's
 * appendix F does.
 */
public final class Transcoding {
  private static final Pattern DECLARED = Pattern.compile(
      "^<\\?xml[^>]*?encoding\\s*=\\s*[\"']([A-Za-z0-9._:-]+)[\"']");

  private Transcoding() {}

  /**
   * Returns {@code envelope} as UTF-8.
   *
   * @param transportCharset the Content-Type's charset parameter, or null if it had none
   * @throws IllegalArgumentException naming the encoding if it is unknown or the bytes are not
   *     valid in it
   */
  public static ByteString toUtf8(ByteString envelope, String transportCharset) {
    Charset charset = encodingOf(envelope, transportCharset);
    if (charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.US_ASCII)) {
      return envelope;
    }
    String text = decode(envelope, charset);
    if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
      text = text.substring(1);
    }
    Matcher m = DECLARED.matcher(text);
    if (m.find()) {
      text = text.substring(0, m.start(1)) + "UTF-8" + text.substring(m.end(1));
    }
    return ByteString.encodeUtf8(text);
  }

  private static Charset encodingOf(ByteString b, String transportCharset) {
    int b0 = b.size() > 0 ? b.byteAt(0) & 0xff : -1;
    int b1 = b.size() > 1 ? b.byteAt(1) & 0xff : -1;
    if (b0 == 0xFE && b1 == 0xFF || b0 == 0 && b1 == '<') {
      return StandardCharsets.UTF_16BE;
    }
    if (b0 == 0xFF && b1 == 0xFE || b0 == '<' && b1 == 0) {
      return StandardCharsets.UTF_16LE;
    }
    if (b0 == 0xEF && b1 == 0xBB) {
      return StandardCharsets.UTF_8;
    }
    if (transportCharset != null && !transportCharset.isBlank()) {
      return forName(transportCharset.strip(), "the Content-Type's charset");
    }
    int head = Math.min(b.size(), 200);
    Matcher m = DECLARED.matcher(b.subSequence(0, head).string(StandardCharsets.ISO_8859_1));
    return m.find() ? forName(m.group(1), "the XML declaration's encoding")
        : StandardCharsets.UTF_8;
  }

  private static Charset forName(String name, String where) {
    try {
      return Charset.forName(name.toUpperCase(Locale.ROOT));
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw new IllegalArgumentException(where + " " + name + " is not an encoding this JVM"
          + " knows");
    }
  }

  private static String decode(ByteString b, Charset charset) {
    CharsetDecoder d = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return d.decode(b.asByteBuffer()).toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the envelope is not valid " + charset.name() + ": "
          + e.getMessage());
    }
  }
}
