package dev.ferry.ldap;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Fuzzes {@link LdifReader}: any bytes, read in chunks whose size the input picks, must read as
 * records or fail with an {@link LdifException} whose line number and offset lie in the input;
 * what reads must write with {@link LdifWriter} and read back the same.
 *
 * <p>In a normal build this replays the committed corpus in
 * {@code src/test/resources/dev/ferry/ldap/LdifReaderFuzzTestInputs/readsAnyLdif/}; see
 * docs/fuzzing.md for a real fuzzing run.
 */
class LdifReaderFuzzTest {
  private static final LdifLimits LIMITS = LdifLimits.builder().maxLineBytes(1 << 12)
      .maxRecordBytes(1 << 14).build();

  @FuzzTest(maxDuration = "30s")
  void readsAnyLdif(byte[] input) throws IOException {
    if (input.length == 0) {
      return;
    }
    int chunk = 1 + (input[0] & 0x3f);
    List<LdifRecord> records;
    try (LdifReader r = LdifReader.builder().limits(LIMITS).build(new Chunked(input, chunk))) {
      records = r.readAll();
    } catch (LdifException e) {
      long lines = 1;
      for (byte b : input) {
        lines += b == '\n' ? 1 : 0;
      }
      if (e.byteOffset() < 0 || e.byteOffset() > input.length || e.lineNumber() < 1
          || e.lineNumber() > lines) {
        throw new AssertionError("location out of range: " + e, e);
      }
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (LdifWriter w = LdifWriter.of(out)) {
      for (LdifRecord r : records) {
        w.write(r);
      }
    }
    List<LdifRecord> again = LdifReader.of(new java.io.ByteArrayInputStream(out.toByteArray()))
        .readAll();
    if (!again.equals(records)) {
      throw new AssertionError("written and read again differs: " + records + " -> " + again);
    }
  }

  /** Hands out at most {@code chunk} bytes a read. */
  private static final class Chunked extends InputStream {
    private final byte[] data;
    private final int chunk;
    private int pos;

    Chunked(byte[] data, int chunk) {
      this.data = data;
      this.chunk = chunk;
    }

    @Override
    public int read() {
      return pos < data.length ? data[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos == data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, chunk), data.length - pos);
      System.arraycopy(data, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
