package dev.ferry.xop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.mime.MimeException;
import dev.ferry.testkit.Vectors;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Attachments spool to private temp files, and no temp file outlives its package. */
class XopPackageSpoolTest {
  @TempDir Path dir;

  XopCodec spoolingCodec() {
    return XopCodec.builder().spoolDirectory(dir)
        .limits(XopLimits.builder().attachmentMemoryBytes(1024).build()).build();
  }

  @Test
  void weblogicPdfSpoolsToOneFileThatCloseDeletes() throws Exception {
    try (XopPackage pkg = XopTestSupport.open(spoolingCodec(), "msg-soap-wls81.txt")) {
      Attachment pdf = pkg.attachment("__WLS__1188904239162__SOAP__");
      assertThat(pdf.isInMemory()).isFalse();
      try (var files = Files.list(dir)) {
        assertThat(files).hasSize(1);
      }
      byte[] viaStream = pdf.openStream().readAllBytes();
      assertThat(viaStream).isEqualTo(pdf.bytes().toByteArray()).hasSize(25831);
    }
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aTruncatedPackageLeavesNoTempFile() throws Exception {
    byte[] whole = Vectors.bytes("mime/shared/mtom-sample1.msg");
    byte[] cut = Arrays.copyOf(whole, whole.length - 5000);
    XopCodec codec = XopCodec.builder().spoolDirectory(dir).lenientLineEnds(true)
        .limits(XopLimits.builder().attachmentMemoryBytes(1024).build()).build();
    assertThrows(MimeException.class, () -> {
      try (XopPackage pkg = codec.read(new ByteArrayInputStream(cut),
          XopTestSupport.contentTypeOf("mtom-sample1.msg"))) {
        pkg.attachments();
      }
    });
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }
}
