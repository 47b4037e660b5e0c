package dev.ferry.cli;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MimeLimits;
import dev.ferry.mime.MultipartReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens a message file the way people have them: a MIME entity (headers, then the multipart
 * body), a raw HTTP request, or a bare multipart body whose boundary is read off its first
 * delimiter line. Line ends are chosen from that first delimiter line unless given.
 */
final class MessageFile {
  enum LineEnds { AUTO, STRICT, LENIENT }

  private MessageFile() {}

  /**
   * Opens {@code file}; {@code contentType} (may be null) overrides what the file says;
   * {@code lenientHeaders} reads past malformed header fields and parameters, reporting them.
   */
  static Opened open(Path file, String contentType, LineEnds lineEnds, boolean lenientHeaders,
      MimeLimits limits) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024);
    try {
      in.mark(8192);
      byte[] head = in.readNBytes(8192);
      in.reset();
      boolean bareLf = firstLineEndsInBareLf(head);
      MediaType type;
      MimeHeaders headers = MimeHeaders.EMPTY;
      if (contentType != null) {
        type = MediaType.parse(contentType);
      } else if (head.length > 2 && head[0] == '-' && head[1] == '-') {
        type = MediaType.of("multipart", "related").withParameter("boundary", sniffBoundary(head));
      } else {
        if (looksLikeHttpRequestLine(head)) {
          skipLine(in);
        }
        headers = MimeHeaders.readFrom(in, limits, true, lenientHeaders);
        type = headers.contentType();
        if (type == null || type.boundary() == null) {
          throw new MimeException("no multipart Content-Type with a boundary in the file's"
              + " headers; give one with --content-type", -1, file.toString());
        }
      }
      boolean lenient = switch (lineEnds) {
        case STRICT -> false;
        case LENIENT -> true;
        case AUTO -> bareLf;
      };
      MultipartReader reader = MultipartReader.builder(in, type.boundary()).limits(limits)
          .lenientLineEnds(lenient).lenientHeaders(lenientHeaders).build();
      return new Opened(type, headers, reader, lenient);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The message's type, its own headers (empty for a bare body), and a reader of its parts. */
  record Opened(MediaType contentType, MimeHeaders headers, MultipartReader reader,
      boolean lenient) {}

  private static String sniffBoundary(byte[] head) {
    int end = 2;
    while (end < head.length && head[end] != '\r' && head[end] != '\n') {
      end++;
    }
    return new String(head, 2, end - 2, StandardCharsets.ISO_8859_1).stripTrailing();
  }

  /** Returns true if the first delimiter line ("--...") ends in LF without CR. */
  private static boolean firstLineEndsInBareLf(byte[] head) {
    for (int i = 0; i + 1 < head.length; i++) {
      boolean lineStart = i == 0 || head[i - 1] == '\n';
      if (lineStart && head[i] == '-' && head[i + 1] == '-') {
        for (int j = i; j < head.length; j++) {
          if (head[j] == '\n') {
            return j == 0 || head[j - 1] != '\r';
          }
        }
        return false;
      }
    }
    return false;
  }

  private static boolean looksLikeHttpRequestLine(byte[] head) {
    String start = new String(head, 0, Math.min(head.length, 200), StandardCharsets.ISO_8859_1);
    int eol = start.indexOf('\n');
    return eol > 0 && start.substring(0, eol).matches("[A-Z]+ \\S+ HTTP/\\d\\.\\d\\r?");
  }

  private static void skipLine(InputStream in) throws IOException {
    for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
      // skip
    }
  }
}
