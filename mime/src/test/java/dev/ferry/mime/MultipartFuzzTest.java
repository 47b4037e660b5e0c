package dev.ferry.mime;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Fuzz targets for the push parser and the pull reader: any input may fail only with a
 * {@link MimeException}. Lenient runs are lenient about line ends and header fields both. In a
 * normal build these replay the committed corpus under
 * {@code src/test/resources/dev/ferry/mime/MultipartFuzzTestInputs}; see docs/fuzzing.md for a
 * real fuzzing run.
 */
class MultipartFuzzTest {
  private static final MimeLimits SMALL = MimeLimits.builder().maxHeaderBytes(2048)
      .maxHeaderCount(20).maxParts(50).maxPartBytes(1 << 20).maxMessageBytes(1 << 21)
      .maxPreambleBytes(4096).maxEpilogueBytes(4096).build();

  @FuzzTest(maxDuration = "10s")
  void pushParser(FuzzedDataProvider data) {
    boolean lenient = data.consumeBoolean();
    String boundary = data.consumeAsciiString(8);
    int maxChunk = data.consumeInt(1, 300);
    byte[] input = data.consumeRemainingAsBytes();
    try {
      MultipartParser p = MultipartParser.builder(boundary).limits(SMALL)
          .lenientLineEnds(lenient).lenientHeaders(lenient).build();
      feed(p, input, maxChunk);
    } catch (MimeException expected) {
      // the only failure allowed
    }
  }

  @FuzzTest(maxDuration = "10s")
  void pullReader(FuzzedDataProvider data) throws IOException {
    boolean lenient = data.consumeBoolean();
    int readSize = data.consumeInt(1, 2000);
    byte[] input = data.consumeRemainingAsBytes();
    try (MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(input), "b")
        .limits(SMALL).lenientLineEnds(lenient).lenientHeaders(lenient).build()) {
      byte[] buf = new byte[readSize];
      for (Part p; (p = r.nextPart()) != null; ) {
        var body = p.headers().contentTransferEncoding() == null ? p.body() : p.decodedBody();
        while (body.read(buf, 0, buf.length) >= 0) {
          // drain
        }
      }
    } catch (MimeException expected) {
      // the only failure allowed
    }
  }

  private static void feed(MultipartParser p, byte[] input, int maxChunk) throws MimeException {
    int pos = 0;
    while (pos < input.length) {
      int end = Math.min(input.length, pos + maxChunk);
      int start = pos;
      while (true) {
        MultipartParser.Event e = p.next(input, start, end);
        int used = p.consumed();
        if (used == 0 && e == MultipartParser.Event.NEED_INPUT && start < end) {
          throw new AssertionError("no progress at " + start);
        }
        start += used;
        if (e == MultipartParser.Event.NEED_INPUT) {
          break;
        }
      }
      pos = end;
    }
    p.endOfInput();
  }
}
