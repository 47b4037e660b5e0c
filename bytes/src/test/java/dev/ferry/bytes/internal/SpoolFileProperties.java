package dev.ferry.bytes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The spool file's buffered appends and read-ahead: whatever the sizes of the pieces written
 * and of the reads, and however they interleave, a stream reads exactly the bytes appended.
 */
class SpoolFileProperties {

  @Property(tries = 200)
  void streamsReadWhatWasAppendedHoweverTheyInterleave(
      @ForAll @IntRange(min = 0, max = 400_000) int size,
      @ForAll @IntRange(min = 1, max = 150_000) int maxPiece,
      @ForAll @IntRange(min = 1, max = 150_000) int maxRead, @ForAll long seed)
      throws IOException {
    Random random = new Random(seed);
    byte[] data = new byte[size];
    random.nextBytes(data);
    Path dir = Files.createTempDirectory("spool-file-props");
    SpoolFile file = SpoolFile.create(dir);
    try {
      long[] written = {0};
      InputStream early = file.openStream(() -> written[0]); // opened before any append
      ByteArrayOutputStream earlyRead = new ByteArrayOutputStream();
      byte[] buffer = new byte[maxRead];
      while (written[0] < size) {
        int n = (int) Math.min(1 + random.nextInt(maxPiece), size - written[0]);
        file.write(data, (int) written[0], n);
        written[0] += n;
        if (random.nextInt(4) == 0) { // the early stream reads some of what is there now
          int got = early.read(buffer, 0, 1 + random.nextInt(maxRead));
          if (got > 0) {
            earlyRead.write(buffer, 0, got);
          }
        }
      }
      for (int got; (got = early.read(buffer, 0, 1 + random.nextInt(maxRead))) >= 0; ) {
        earlyRead.write(buffer, 0, got);
      }
      assertThat(earlyRead.toByteArray()).isEqualTo(data);

      InputStream late = file.openStream(() -> size);
      int skip = size == 0 ? 0 : random.nextInt(size);
      assertThat(late.skip(skip)).isEqualTo(skip);
      assertThat(late.readAllBytes()).isEqualTo(Arrays.copyOfRange(data, skip, size));
      assertThat(Files.size(file.path())).isEqualTo(size); // every byte reached the file

      InputStream copied = file.openStream(() -> size);
      assertThat(copied.skip(skip)).isEqualTo(skip);
      ByteArrayOutputStream transferred = new ByteArrayOutputStream();
      assertThat(copied.transferTo(transferred)).isEqualTo(size - skip);
      assertThat(transferred.toByteArray()).isEqualTo(Arrays.copyOfRange(data, skip, size));
    } finally {
      file.run();
      Files.deleteIfExists(dir);
    }
  }

  @Property(tries = 100)
  void readingAllWhileTheFileGrowsGetsEveryByteOnce(
      @ForAll @IntRange(min = 0, max = 300_000) int before,
      @ForAll @IntRange(min = 0, max = 300_000) int after,
      @ForAll @IntRange(min = 0, max = 700_000) int limit, @ForAll long seed) throws IOException {
    Random random = new Random(seed);
    byte[] data = new byte[before + after];
    random.nextBytes(data);
    Path dir = Files.createTempDirectory("spool-file-props");
    SpoolFile file = SpoolFile.create(dir);
    try {
      file.write(data, 0, before);
      long[] written = {before};
      // The end the stream sees grows by the rest once it has asked for it the first time, as
      // when a writer appends while a reader reads all.
      int[] asked = {0};
      InputStream in = file.openStream(() -> {
        if (asked[0]++ == 1 && after > 0) {
          try {
            file.write(data, before, after);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          written[0] += after;
        }
        return written[0];
      });
      byte[] got = in.readNBytes(limit);
      int expected = Math.min(limit, data.length);
      assertThat(got).isEqualTo(Arrays.copyOf(data, expected));
    } finally {
      file.run();
      Files.deleteIfExists(dir);
    }
  }
}
