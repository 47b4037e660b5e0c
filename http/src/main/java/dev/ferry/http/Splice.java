package dev.ferry.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Message;
import dev.ferry.xop.XopPackage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * How the fast path sends a small multipart request (MTOM, SwA) on without writing it out
 * again: the caller's bytes as they came, in the array they were received into, with the root
 * part's body replaced by the changed envelope. Writing the package anew (a new boundary, every
 * attachment re-framed into one more array) was about a tenth of the broker's CPU per 32 KiB
 * MTOM request in the profile. The envelope is written over the old one so that it ends where
 * that ended, and what comes before it (preamble, first delimiter, root headers; a few hundred
 * bytes) moves by as much as the envelope grew, into the room left before the caller's bytes:
 * the attachments stay where they are, and the request is one buffer, so Jetty's client sends
 * its headers and body in one write (given as three pieces, it wrote each on its own).
 *
 * <p>The request keeps its Content-Type, so its boundary, which the new envelope must therefore
 * not contain. Where the root is not its bytes as they came (transfer-encoded or transcoded)
 * or grew by more than the room, this way is not taken.
 */
final class Splice {
  private Splice() {}

  /**
   * Returns the request to send, in {@code body} (the whole request as it came is at {@code
   * offset}, {@code length} bytes; the room before it may be written), or null if {@code
   * message} cannot go out this way; then neither {@code body} nor the package was touched. The
   * parts after the root are checked as they would be if written out (see {@link
   * XopPackage#skipRest}).
   *
   * @throws IOException if a part after the root is malformed or over a limit
   */
  static ByteBuffer of(Message message, byte[] body, int offset, int length)
      throws IOException {
    XopPackage pkg = message.attachments();
    if (pkg == null || !pkg.isMultipart() || pkg.rootOffset() < 0
        || pkg.rootHeaders().get("Content-Length") != null) {
      return null; // (a part's Content-Length, which some stacks send, would no longer hold)
    }
    ByteString root = message.buffer().envelope();
    int start = offset + (int) pkg.rootOffset();
    int end = start + root.size();
    ByteString dashes = ByteString.of(("--" + pkg.contentType().boundary())
        .getBytes(StandardCharsets.ISO_8859_1));
    if (end + 2 + dashes.size() > offset + length || !root.contentEquals(body, start, root.size())
        || body[end] != '\r' || body[end + 1] != '\n'
        || !dashes.contentEquals(body, end + 2, dashes.size())) {
      return null; // the root was decoded on its way in, or ends in a bare LF: write it anew
    }
    ByteString envelope = message.toByteString();
    int grow = envelope.size() - root.size();
    if (grow > offset || envelope.indexOf(dashes, 0) >= 0) {
      return null; // no room for it, or it would end the root part early
    }
    pkg.skipRest();
    System.arraycopy(body, offset, body, offset - grow, start - offset);
    envelope.copyTo(0, body, end - envelope.size(), envelope.size());
    return ByteBuffer.wrap(body, offset - grow, length + grow);
  }
}
