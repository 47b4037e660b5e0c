package dev.ferry.logging.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.logging.MessageLog;
import dev.ferry.testkit.Allocations;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.LogCapture;
import dev.ferry.testkit.SecretCorpus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Messages through a tap, read and written, single-part and MTOM: what passes is unchanged, the
 * record names what went by with no secret in it, the cap holds, and a 100 MiB attachment goes
 * by without being held.
 */
class MessageTapTest {
  private static final String BOUNDARY = "uuid:7f2e-boundary";
  private static final String MTOM = "multipart/related; type=\"application/xop+xml\"; boundary=\""
      + BOUNDARY + "\"; start=\"<root@ferry>\"; start-info=\"text/xml\"";
  private static final MessageLog LOG = MessageLog.builder()
      .maskNames(SecretCorpus.NAMES.toArray(String[]::new)).maskHeaders(SecretCorpus.HEADER)
      .build();
  private static final List<Map.Entry<String, String>> HEADERS = java.util.stream.Stream.concat(
      java.util.stream.Stream.of(Map.entry("Content-Type", "text/xml; charset=UTF-8")),
      SecretCorpus.headers().stream()).toList();

  static List<String> envelopes() {
    return SecretCorpus.envelopes();
  }

  @ParameterizedTest
  @MethodSource("envelopes")
  void aSingleEnvelopeIsLoggedMaskedAndPassesUnchanged(String envelope) throws IOException {
    byte[] bytes = envelope.getBytes(StandardCharsets.UTF_8);
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      MessageTap read = MessageTap.open(LOG, () -> "request 1 POST /login", () -> "text/xml");
      byte[] passed = read.tap(new ByteArrayInputStream(bytes)).readAllBytes();
      read.log(HEADERS);
      read.finish(HEADERS);
      ByteArrayOutputStream sink = new ByteArrayOutputStream();
      MessageTap written = MessageTap.open(LOG, () -> "reply 1 200", () -> "text/xml");
      try (OutputStream out = written.tap(sink)) {
        out.write(bytes);
      }
      written.finish(HEADERS);

      assertThat(passed).isEqualTo(bytes);
      assertThat(sink.toByteArray()).isEqualTo(bytes);
      assertThat(logs.messages()).hasSize(2);
      for (String record : logs.messages()) {
        assertNoSecret(record);
        assertThat(record).contains("alice").contains("SOAPAction: \"urn:login\"")
            .contains("Authorization: ***").contains("X-Session: ***");
      }
      assertThat(logs.messages().get(0)).startsWith("request 1 POST /login\n");
    }
  }

  @ParameterizedTest
  @MethodSource("envelopes")
  void anMtomMessageIsLoggedWithItsAttachmentNamedNotRead(String envelope) throws IOException {
    byte[] attachment = "S3cr3t-attachment 4111 1111 1111 1111".getBytes(StandardCharsets.UTF_8);
    byte[] message = concat(mtomHead(envelope), attachment, mtomTail());
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      MessageTap tap = MessageTap.open(LOG, () -> "request 2 POST /upload", () -> MTOM);
      InputStream in = tap.tap(new ByteArrayInputStream(message));
      assertThat(in.readAllBytes()).isEqualTo(message);
      tap.finish(List.of(Map.entry("Content-Type", MTOM)));

      String record = logs.messages().getFirst();
      assertNoSecret(record);
      assertThat(record).contains("alice").contains("attachment <att1@ferry> "
          + "application/octet-stream " + attachment.length + " bytes");
    }
  }

  @Test
  void theCapHoldsAndNoSecretIsCutInTwo() throws IOException {
    MessageLog small = MessageLog.builder().maxBytes(1000).build();
    StringBuilder b = new StringBuilder("<s:Envelope xmlns:s=\"urn:s\"><s:Body><list>");
    while (b.length() < 990) {
      b.append("<item>kept</item>");
    }
    b.append("<password>S3cr3t-straddling-the-cap</password> 4111 1111 1111 1111");
    while (b.length() < 100_000) {
      b.append("<item>elided</item>");
    }
    b.append("</list></s:Body></s:Envelope>");
    byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      MessageTap tap = MessageTap.open(small, () -> "reply 3 200", () -> "text/xml");
      tap.tap(OutputStream.nullOutputStream()).write(bytes);
      tap.finish(List.of());

      String record = logs.messages().getFirst();
      String envelope = record.substring(record.indexOf("\n\n") + 2, record.indexOf("\n[... "));
      assertThat(envelope.length()).isLessThanOrEqualTo(1000);
      assertThat(envelope).startsWith("<s:Envelope").contains("<item>kept</item>")
          .doesNotContain("elided");
      assertNoSecret(record);
      assertThat(record).contains("[... " + (bytes.length - 1000)
          + " more envelope bytes not logged (" + bytes.length + " in all, logged up to 1000)]");
    }
  }

  @Test
  void a100MiBAttachmentGoesByCountedNotHeld() throws IOException {
    long size = 100L * 1024 * 1024;
    InputStream message = new SequenceInputStream(java.util.Collections.enumeration(List.of(
        new ByteArrayInputStream(mtomHead(envelopes().getFirst())), Blobs.filler(size),
        new ByteArrayInputStream(mtomTail()))));
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      MessageTap tap = MessageTap.open(LOG, () -> "request 4 POST /upload", () -> MTOM);
      long before = Allocations.currentThread();
      long passed;
      try (InputStream in = tap.tap(message)) {
        passed = in.transferTo(OutputStream.nullOutputStream());
      }
      tap.finish(List.of());
      long allocated = Allocations.currentThread() - before;

      assertThat(passed).isGreaterThan(size);
      assertThat(logs.messages().getFirst()).contains("attachment <att1@ferry> "
          + "application/octet-stream " + size + " bytes");
      // what the tap holds is the envelope's first bytes, whatever the attachment's size
      assertThat(allocated).as("bytes allocated while 100 MiB went by").isLessThan(2 << 20);
    }
  }

  @Test
  void anAttachmentNotYetByIsGivenAsUnknownAndTheLogIsOffWithoutALogger() throws Exception {
    byte[] message = concat(mtomHead(envelopes().get(1)), new byte[5000], mtomTail());
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      MessageTap tap = MessageTap.open(LOG, () -> "reply 5 200", () -> MTOM);
      InputStream in = tap.tap(new ByteArrayInputStream(message));
      in.readNBytes(mtomHead(envelopes().get(1)).length + 1000);
      tap.log(List.of());
      tap.finish(List.of());
      assertThat(logs.messages()).hasSize(2);
      assertThat(logs.messages().get(0)).doesNotContain("attachment <");
      assertThat(logs.messages().get(1)).startsWith("reply 5 200 (continued)")
          .contains("attachment <att1@ferry> application/octet-stream size unknown");
    }
    try (AutoCloseable off = LogCapture.off(MessageLog.LOGGER)) {
      assertThat(MessageTap.open(LOG, () -> "x", () -> MTOM)).isSameAs(MessageTap.OFF);
      InputStream in = new ByteArrayInputStream(message);
      assertThat(MessageTap.OFF.tap(in)).isSameAs(in);
    }
  }

  private static void assertNoSecret(String record) {
    assertThat(SecretCorpus.leaked(record)).as(record).isNull();
  }

  private static byte[] mtomHead(String envelope) {
    String withInclude = envelope.replace("</s:Body>", "<data><xop:Include xmlns:xop="
        + "\"http://www.w3.org/2004/08/xop/include\" href=\"cid:att1@ferry\"/></data></s:Body>");
    return ("--" + BOUNDARY + "\r\nContent-Type: application/xop+xml; type=\"text/xml\"\r\n"
        + "Content-ID: <root@ferry>\r\n\r\n" + withInclude + "\r\n--" + BOUNDARY + "\r\n"
        + "Content-Type: application/octet-stream\r\nContent-ID: <att1@ferry>\r\n"
        + "Content-Transfer-Encoding: binary\r\n\r\n").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] mtomTail() {
    return ("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.writeBytes(p);
    }
    return b.toByteArray();
  }
}
