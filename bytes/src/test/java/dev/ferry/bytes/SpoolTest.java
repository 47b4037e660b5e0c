package dev.ferry.bytes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {
  @TempDir Path dir;

  @Test
  void staysInMemoryUpToTheThreshold() throws Exception {
    try (Spool spool = Spool.builder().memoryThresholdBytes(8).directory(dir).build()) {
      spool.write(new byte[8]);
      assertThat(spool.isInMemory()).isTrue();
      assertThat(spool.path()).isNull();
      assertThat(spool.toByteString().size()).isEqualTo(8);
    }
    assertThat(Files.list(dir)).isEmpty();
  }

  @Test
  void spillsToAPrivateFileReadableManyTimesAndDeletedOnClose() throws Exception {
    byte[] data = new byte[100_000];
    new Random(1).nextBytes(data);
    Path file;
    try (Spool spool = Spool.builder().memoryThresholdBytes(1000).directory(dir).build()) {
      spool.write(data, 0, 500);
      spool.writeFrom(new ByteArrayInputStream(data, 500, data.length - 500));
      assertThat(spool.isInMemory()).isFalse();
      file = spool.path();
      assertThat(file).exists().hasParent(dir);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
      for (int i = 0; i < 3; i++) {
        try (InputStream in = spool.openStream()) {
          assertThat(in.readAllBytes()).isEqualTo(data);
        }
      }
      assertThat(spool.toByteString().toByteArray()).isEqualTo(data);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      spool.writeTo(out);
      assertThat(out.toByteArray()).isEqualTo(data);
      assertThat(spool.size()).isEqualTo(data.length);
    }
    assertThat(file).doesNotExist();
    assertThat(Files.list(dir)).isEmpty();
  }

  @Test
  void memoryGrowsInChunksWithoutLosingOrder() throws Exception {
    byte[] data = new byte[200_000];
    new Random(7).nextBytes(data);
    try (Spool spool = Spool.builder().memoryThresholdBytes(256 * 1024).directory(dir).build()) {
      for (int i = 0; i < data.length; ) {
        int n = Math.min(1 + i % 997, data.length - i);
        spool.write(data, i, n);
        i += n;
      }
      assertThat(spool.isInMemory()).isTrue();
      InputStream early = spool.openStream();
      assertThat(spool.toByteString().toByteArray()).isEqualTo(data);
      assertThat(early.readAllBytes()).isEqualTo(data);
      spool.write(new byte[100_000]); // spills: the bytes move to a file, in order
      assertThat(spool.isInMemory()).isFalse();
      byte[] all = spool.openStream().readAllBytes();
      assertThat(all).hasSize(300_000);
      assertThat(java.util.Arrays.copyOf(all, data.length)).isEqualTo(data);
    }
  }

  @Test
  void aSmallSpoolHandsOutItsOneChunkWithoutACopy() throws Exception {
    try (Spool spool = Spool.builder().directory(dir).build()) {
      spool.write("abc".getBytes());
      ByteString first = spool.toByteString();
      spool.write("def".getBytes());
      assertThat(first.utf8()).isEqualTo("abc");
      assertThat(spool.toByteString().utf8()).isEqualTo("abcdef");
      assertThat(spool.toByteString().array()).isSameAs(first.array());
    }
  }

  @Test
  void aStreamSeesBytesWrittenAfterItOpened() throws Exception {
    try (Spool spool = Spool.builder().memoryThresholdBytes(0).directory(dir).build()) {
      spool.write(new byte[] {1, 2});
      InputStream in = spool.openStream();
      assertThat(in.read(new byte[10])).isEqualTo(2);
      spool.write(3);
      assertThat(in.read()).isEqualTo(3);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void refusesMoreThanMaxBytesAndNamesTheLimit() throws Exception {
    try (Spool spool = Spool.builder().maxBytes(10).directory(dir).build()) {
      spool.write(new byte[10]);
      LimitExceededException e = org.junit.jupiter.api.Assertions.assertThrows(
          LimitExceededException.class, () -> spool.write(new byte[1]));
      assertThat(e.limitName()).isEqualTo("Spool.maxBytes");
      assertThat(e.limitValue()).isEqualTo(10);
      assertThat(e.actualValue()).isEqualTo(11);
      assertThat(e.byteOffset()).isEqualTo(10);
      assertThat(e.getMessage()).isEqualTo("Spool.maxBytes exceeded: 11 > 10 at byte 10");
    }
  }

  @Test
  void countsTheFilesAndBytesSpilledInThisProcess() throws Exception {
    long files = Spool.filesInUse();
    long bytes = Spool.fileBytesInUse();
    Spool spool = Spool.builder().memoryThresholdBytes(1024).build();
    spool.write(new byte[300_000]);
    assertThat(Spool.filesInUse()).isEqualTo(files + 1);
    assertThat(Spool.fileBytesInUse()).isEqualTo(bytes + 300_000);
    spool.close();
    spool.close();
    assertThat(Spool.filesInUse()).isEqualTo(files);
    assertThat(Spool.fileBytesInUse()).isEqualTo(bytes);
  }

  @Test
  void closedSpoolRefusesUse() throws Exception {
    Spool spool = Spool.builder().directory(dir).build();
    spool.close();
    spool.close();
    assertThatThrownBy(() -> spool.write(1)).hasMessage("spool is closed");
    assertThatThrownBy(spool::openStream).hasMessage("spool is closed");
  }

  @Test
  void anUnclosedSpoolIsReclaimedByTheCleaner() throws Exception {
    Path file = spillAndDrop();
    for (int i = 0; i < 200 && Files.exists(file); i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(file).doesNotExist();
  }

  private Path spillAndDrop() throws Exception {
    Spool spool = Spool.builder().memoryThresholdBytes(0).directory(dir).build();
    spool.write(new byte[100]);
    return spool.path();
  }
}
