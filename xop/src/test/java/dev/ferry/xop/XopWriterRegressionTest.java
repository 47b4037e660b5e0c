package dev.ferry.xop;

import dev.ferry.mime.MediaType;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** Bugs of the writer that the peer interop work found, fixed; each states the right behaviour. */
class XopWriterRegressionTest {
  @Test
  // Fixed bug (found by the interop tests): writeBinary(InputStream, -1, type) reads ahead at
  // most 1 MiB to decide, so with a threshold above 1 MiB a longer stream of unknown length goes
  // inline as base64, against MtomPolicy's contract (content of at least the threshold is
  // attached)
  void streamOfUnknownLengthAboveALargeThresholdIsAttached() throws Exception {
    int threshold = 2 << 20;
    byte[] data = new byte[3 << 20];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    XopWriter w = XopCodec.create().newWriter(out, MtomPolicy.threshold(threshold),
        MediaType.of("text", "xml"));
    w.writeStartElement("data");
    w.writeBinary(new ByteArrayInputStream(data), -1, "application/octet-stream");
    w.writeEndElement();
    w.writeEndDocument();
    w.close();

    assertThat(w.attachmentCount()).isEqualTo(1);
    assertThat(out.size()).isLessThan(data.length + 4096);
  }
}
