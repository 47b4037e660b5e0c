package dev.ferry.ldap;

import static dev.ferry.testkit.DecodeAssertions.assertFails;
import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static dev.ferry.testkit.DecodeAssertions.assertOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.testkit.Allocations;
import dev.ferry.testkit.Chunking;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LdifReaderTest {

  static byte[] vector(String name) throws IOException {
    try (InputStream in = LdifReaderTest.class.getResourceAsStream("/vectors/ldif/" + name)) {
      return in.readAllBytes();
    }
  }

  static List<LdifRecord> read(String ldif) throws IOException {
    return read(ldif.getBytes(StandardCharsets.UTF_8), Chunking.whole());
  }

  /** Reads {@code ldif} through a stream that returns the chunks {@code chunking} makes. */
  static List<LdifRecord> read(byte[] ldif, Chunking chunking) throws IOException {
    try (LdifReader r = LdifReader.of(new ChunkedStream(chunking.split(ldif)))) {
      return r.readAll();
    }
  }

  static LdifException fails(String ldif) {
    return assertFails(LdifException.class, () -> read(ldif));
  }

  @ParameterizedTest
  @MethodSource("dev.ferry.testkit.Chunking#standard")
  void readsExample1TwoEntries(Chunking chunking) throws IOException {
    List<LdifRecord> records = read(vector("rfc2849-example1.ldif"), chunking);
    assertEquals(2, records.size());
    LdifRecord.Entry babs = (LdifRecord.Entry) records.get(0);
    assertEquals("cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com", babs.dn());
    assertEquals(Attribute.of("objectclass", "top", "person", "organizationalPerson"),
        babs.attributes().get(0));
    assertEquals(Attribute.of("cn", "Barbara Jensen", "Barbara J Jensen", "Babs Jensen"),
        babs.attribute("CN"));
    assertEquals("A big sailing fan.", babs.attribute("description").firstValueAsString());
    assertEquals(6, babs.attributes().size());
    assertEquals("cn=Bjorn Jensen, ou=Accounting, dc=airius, dc=com", records.get(1).dn());
  }

  @ParameterizedTest
  @MethodSource("dev.ferry.testkit.Chunking#standard")
  void readsExample2FoldedAndWithoutSpaceAfterColon(Chunking chunking) throws IOException {
    LdifRecord.Entry e = (LdifRecord.Entry) read(vector("rfc2849-example2.ldif"), chunking)
        .get(0);
    assertEquals("cn=Barbara Jensen, ou=Product Development, dc=airius, dc=com", e.dn());
    assertEquals("Babs is a big sailing fan, and travels extensively in search of perfect"
        + " sailing conditions.", e.attribute("description").firstValueAsString());
    assertEquals("Product Manager, Rod and Reel Division", e.attribute("title")
        .firstValueAsString());
  }

  @Test
  void readsExample3Base64WithACarriageReturn() throws IOException {
    LdifRecord.Entry e = (LdifRecord.Entry) read(vector("rfc2849-example3.ldif"),
        Chunking.whole()).get(0);
    String d = e.attribute("description").firstValueAsString();
    assertTrue(d.startsWith("What a careful reader you are!"));
    assertTrue(d.contains("(a CR).\r  By the way"));
  }

  @ParameterizedTest
  @MethodSource("dev.ferry.testkit.Chunking#standard")
  void readsExample4Utf8InBase64WithOptions(Chunking chunking) throws IOException {
    List<LdifRecord> records = read(vector("rfc2849-example4.ldif"), chunking);
    LdifRecord.Entry ou = (LdifRecord.Entry) records.get(0);
    assertEquals("ou=営業部,o=Airius", ou.dn());
    assertEquals("えいぎょうぶ", ou.attribute("ou;lang-ja;phonetic").firstValueAsString());
    assertEquals("Sales", ou.attribute("ou;lang-en").firstValueAsString());
    LdifRecord.Entry person = (LdifRecord.Entry) records.get(1);
    assertEquals("uid=rogasawara,ou=営業部,o=Airius", person.dn());
    assertEquals("おがさわら ろどにー", person.attribute("cn;lang-ja;phonetic")
        .firstValueAsString());
    assertEquals("{SHA}O3HSv1MusyL4kTjP+HKI5uxuNoM=", person.attribute("userpassword")
        .firstValueAsString());
  }

  @Test
  void readsExample5FileUrlFromTheAllowedFolderOnly(@TempDir Path dir) throws IOException {
    byte[] photo = {(byte) 0xff, (byte) 0xd8, 0, 1, 2, '\n', (byte) 0xff, (byte) 0xd9};
    Path file = dir.resolve("hjensen.jpg");
    Files.write(file, photo);
    String ldif = new String(vector("rfc2849-example5.ldif"), StandardCharsets.UTF_8)
        .replace("file:///usr/local/directory/photos/hjensen.jpg", file.toUri().toString());
    LdifException refused = fails(ldif);
    assertMentions(refused.getMessage(), "refused", "line 11", "jpegphoto");
    try (LdifReader r = LdifReader.builder().fileUrlRoot(dir)
        .build(new ByteArrayInputStream(ldif.getBytes(StandardCharsets.UTF_8)))) {
      LdifRecord.Entry e = (LdifRecord.Entry) r.next();
      assertEquals(ByteString.of(photo), e.attribute("jpegphoto").value(0));
      assertNull(r.next());
    }
    LdifException outside = assertFails(LdifException.class, () -> {
      try (LdifReader r = LdifReader.builder().fileUrlRoot(dir.resolve("sub"))
          .build(new ByteArrayInputStream(ldif.getBytes(StandardCharsets.UTF_8)))) {
        Files.createDirectories(dir.resolve("sub"));
        r.next();
      }
    });
    assertMentions(outside.reason(), "outside");
    assertEquals(11, outside.lineNumber());
  }

  @ParameterizedTest
  @MethodSource("dev.ferry.testkit.Chunking#standard")
  void readsExample6ChangeRecords(Chunking chunking) throws IOException {
    String ldif = new String(vector("rfc2849-example6.ldif"), StandardCharsets.UTF_8)
        .replace("jpegphoto:< file:///usr/local/directory/photos/fiona.jpg\n", "");
    List<LdifRecord> records = read(ldif.getBytes(StandardCharsets.UTF_8), chunking);
    assertEquals(6, records.size());
    LdifRecord.Add add = (LdifRecord.Add) records.get(0);
    assertEquals("fiona", add.attributes().get(3).firstValueAsString());
    assertEquals(new LdifRecord.Delete("cn=Robert Jensen, ou=Marketing, dc=airius, dc=com",
        List.of()), records.get(1));
    assertEquals(new LdifRecord.ModifyDn(
        "cn=Paul Jensen, ou=Product Development, dc=airius, dc=com", "cn=Paula Jensen", true,
        null, List.of()), records.get(2));
    assertEquals(new LdifRecord.ModifyDn(
        "ou=PD Accountants, ou=Product Development, dc=airius, dc=com",
        "ou=Product Development Accountants", false, "ou=Accounting, dc=airius, dc=com",
        List.of()), records.get(3));
    LdifRecord.Modify modify = (LdifRecord.Modify) records.get(4);
    assertEquals(List.of(
        new Modification(Modification.Type.ADD, Attribute.of("postaladdress",
            "123 Anystreet $ Sunnyvale, CA $ 94086")),
        new Modification(Modification.Type.DELETE, Attribute.of("description")),
        new Modification(Modification.Type.REPLACE, Attribute.of("telephonenumber",
            "+1 408 555 1234", "+1 408 555 5678")),
        new Modification(Modification.Type.DELETE, Attribute.of("facsimiletelephonenumber",
            "+1 408 555 9876"))), modify.modifications());
    LdifRecord.Modify empty = (LdifRecord.Modify) records.get(5);
    assertEquals(List.of(
        new Modification(Modification.Type.REPLACE, Attribute.of("postaladdress")),
        new Modification(Modification.Type.DELETE, Attribute.of("description"))),
        empty.modifications());
  }

  @Test
  void readsExample7AControlOnADelete() throws IOException {
    List<LdifRecord> records = read(vector("rfc2849-example7.ldif"), Chunking.whole());
    assertEquals(List.of(new LdifRecord.Delete("ou=Product Development, dc=airius, dc=com",
        List.of(new Control("1.2.840.113556.1.4.805", true, null)))), records);
  }

  @Test
  void everySplitPointOfASmallFileReadsTheSame() throws IOException {
    byte[] crlf = ("version: 1\r\n# folded\r\n comment\r\ndn: cn=a\r\ncn: x\r\n y\r\n"
        + "sn:: 4pyT\r\n\r\ndn: cn=b\r\ncontrol: 1.2.3 true: v\r\nchangetype: modify\r\n"
        + "replace: cn\r\ncn: z\r\n-\r").getBytes(StandardCharsets.UTF_8);
    for (byte[] ldif : List.of(vector("rfc2849-example7.ldif"), crlf)) {
      List<LdifRecord> whole = read(ldif, Chunking.whole());
      for (Chunking c : Chunking.everySplit(ldif.length)) {
        assertEquals(whole, read(ldif, c), c.toString());
      }
    }
    assertEquals(2, read(crlf, Chunking.whole()).size());
  }

  @Test
  void readsControlValuesPlainAndBase64() throws IOException {
    List<LdifRecord> records = read("""
        dn: cn=x
        control: 1.2.3 false: plain
        control: 1.2.4:: AAEC
        changetype: delete
        """);
    assertEquals(List.of(new Control("1.2.3", false, ByteString.encodeUtf8("plain")),
        new Control("1.2.4", false, ByteString.of((byte) 0, (byte) 1, (byte) 2))),
        records.get(0).controls());
  }

  @Test
  void acceptsCrLfCommentsFoldedCommentsAndMissingFinalNewline() throws IOException {
    String ldif = "# a comment\r\n  folded into it\r\ndn: cn=a\r\ncn: a\r\n b\r\n\r\n\r\n"
        + "dn: cn=b\r\n# between\r\ncn: b";
    List<LdifRecord> records = read(ldif);
    assertEquals(List.of(new LdifRecord.Entry("cn=a", List.of(Attribute.of("cn", "ab"))),
        new LdifRecord.Entry("cn=b", List.of(Attribute.of("cn", "b")))), records);
  }

  @Test
  void acceptsAModifyWithoutItsLastDashAndIncrement() throws IOException {
    LdifRecord.Modify m = (LdifRecord.Modify) read("""
        dn: cn=x
        changetype: modify
        increment: uidNumber
        uidNumber: 1
        """).get(0);
    assertEquals(List.of(new Modification(Modification.Type.INCREMENT,
        Attribute.of("uidNumber", "1"))), m.modifications());
  }

  @Test
  void emptyInputHasNoRecords() throws IOException {
    assertEquals(List.of(), read(""));
    assertEquals(List.of(), read("version: 1\n\n# nothing else\n"));
  }

  // --- errors, with line numbers -----------------------------------------------------------------

  @Test
  void aRecordMustStartWithDn() {
    LdifException e = fails("dn: cn=a\ncn: a\n\ncn: b\n");
    assertEquals(4, e.lineNumber());
    assertOffset(16, e.byteOffset());
    assertMentions(e.getMessage(), "record starts with \"cn:\" (expected: dn:)", "line 4");
  }

  @Test
  void aLineNeedsAColon() {
    LdifException e = fails("dn: cn=a\ncn: a\nnonsense\n");
    assertEquals(3, e.lineNumber());
    assertMentions(e.reason(), "line without ':'");
  }

  @Test
  void badBase64NamesLineAndAttribute() {
    LdifException e = fails("dn: cn=a\ncn: a\n\ndn: cn=b\njpegPhoto:: AB$C\n");
    assertEquals(5, e.lineNumber());
    assertMentions(e.getMessage(), "invalid base64", "line 5 > attribute \"jpegPhoto\"");
  }

  @Test
  void aFoldedLineAfterABlankLineIsAnError() {
    LdifException e = fails("dn: cn=a\ncn: a\n\n continued\n");
    assertEquals(4, e.lineNumber());
    assertOffset(16, e.byteOffset());
  }

  @Test
  void aModifySpecMustNameItsOwnAttribute() {
    LdifException e = fails("dn: cn=a\nchangetype: modify\nadd: cn\nsn: x\n-\n");
    assertEquals(4, e.lineNumber());
    assertMentions(e.getMessage(), "attribute \"sn\" in the spec of \"cn\"", "record \"cn=a\"");
  }

  @Test
  void unknownChangeTypeAndBadDeleteOldRdn() {
    assertMentions(fails("dn: cn=a\nchangetype: rename\n").reason(), "unknown changetype");
    LdifException e = fails("dn: cn=a\nchangetype: moddn\nnewrdn: cn=b\ndeleteoldrdn: yes\n");
    assertEquals(4, e.lineNumber());
    assertMentions(e.reason(), "(expected: 0 or 1)");
  }

  @Test
  void aControlNeedsAChangeType() {
    LdifException e = fails("dn: cn=a\ncontrol: 1.2.3\ncn: a\n");
    assertEquals(3, e.lineNumber());
    assertMentions(e.reason(), "control without changetype");
  }

  @Test
  void textMustBeUtf8AndVersionOne() {
    assertMentions(fails("dn:: /w==\ncn: a\n").reason(), "\"dn\" is not UTF-8");
    assertMentions(fails("version: 2\ndn: cn=a\ncn: a\n").reason(), "unsupported LDIF version");
  }

  @Test
  void attributeDescriptionsAreChecked() {
    LdifException e = fails("dn: cn=a\nc n: a\n");
    assertEquals(2, e.lineNumber());
    assertMentions(e.reason(), "attribute description \"c n\"");
  }

  @Test
  void afterAnErrorTheReaderKeepsFailing() throws IOException {
    try (LdifReader r = LdifReader.of(new ByteArrayInputStream(
        "dn: cn=a\ncn: a\n\n bad\n\ndn: cn=b\ncn: b\n".getBytes(StandardCharsets.UTF_8)))) {
      assertEquals("cn=a", r.next().dn());
      LdifException first = assertFails(LdifException.class, r::next);
      LdifException again = assertFails(LdifException.class, r::next);
      assertEquals(first, again);
    }
  }

  // --- limits: at the limit, one over, far beyond ----------------------------------------

  static List<LdifRecord> readWith(LdifLimits limits, byte[] ldif) throws IOException {
    try (LdifReader r = LdifReader.builder().limits(limits)
        .build(new ByteArrayInputStream(ldif))) {
      return r.readAll();
    }
  }

  @Test
  void maxLineBytesCountsTheJoinedLineWithoutItsLineEnd() throws IOException {
    // "cn: " + 12 bytes = 16 bytes, folded over two physical lines, CR LF ends
    byte[] ldif = "dn: cn=a\r\ncn: abcdef\r\n ghijkl\r\n".getBytes(StandardCharsets.US_ASCII);
    LdifLimits at = LdifLimits.builder().maxLineBytes(16).build();
    assertEquals("abcdefghijkl", ((LdifRecord.Entry) readWith(at, ldif).get(0))
        .attribute("cn").firstValueAsString());
    LdifLimits over = LdifLimits.builder().maxLineBytes(15).build();
    LdifException e = assertFails(LdifException.class, () -> readWith(over, ldif));
    assertEquals("LdifLimits.maxLineBytes", e.limitName());
    assertEquals(16, e.actualValue());
    assertEquals(2, e.lineNumber());
    assertOffset(10, e.byteOffset());
  }

  @Test
  void maxRecordBytesCountsTheRecordsLinesAndWhatHoldsThem() throws IOException {
    // "dn: cn=a" and "cn: a": 8 + 5 bytes, and 64 for each of the two lines
    int perLine = LdifRecordParser.LINE_OVERHEAD_BYTES;
    byte[] ldif = "dn: cn=a\ncn: a\n\ndn: cn=b\ncn: bb\n".getBytes(StandardCharsets.US_ASCII);
    LdifLimits at = LdifLimits.builder().maxRecordBytes(13 + 2 * perLine).build();
    assertEquals(2, readWith(at, "dn: cn=a\ncn: a\n\ndn: cn=b\ncn: b\n"
        .getBytes(StandardCharsets.US_ASCII)).size());
    LdifException e = assertFails(LdifException.class, () -> readWith(at, ldif));
    assertEquals("LdifLimits.maxRecordBytes", e.limitName());
    assertEquals(14 + 2 * perLine, e.actualValue());
    assertEquals(5, e.lineNumber());
  }

  @Test
  void aRecordOfEndlessShortLinesStopsAtTheLimit() {
    InputStream endless = endless("dn: cn=a\n".getBytes(StandardCharsets.US_ASCII),
        "cn: x\n".getBytes(StandardCharsets.US_ASCII), 512L * 1024 * 1024);
    long before = Allocations.currentThread();
    LdifException e = assertFails(LdifException.class, () -> {
      try (LdifReader r = LdifReader.of(endless)) {
        r.next();
      }
    });
    long allocated = Allocations.currentThread() - before;
    assertEquals("LdifLimits.maxRecordBytes", e.limitName());
    assertTrue(allocated < 2L * LdifLimits.DEFAULT_MAX_RECORD_BYTES, // 26 MB; 345 MB counted
        // without the lines' bookkeeping
        "allocated " + allocated + " bytes for a record of 512 MiB");
  }

  @Test
  void aHugeLineStopsAtTheLimitWithoutAllocatingIt() {
    InputStream endless = endless(new byte[0], new byte[] {'x'}, 512L * 1024 * 1024);
    long before = Allocations.currentThread();
    LdifException e = assertFails(LdifException.class, () -> {
      try (LdifReader r = LdifReader.of(endless)) {
        r.next();
      }
    });
    long allocated = Allocations.currentThread() - before;
    assertEquals("LdifLimits.maxLineBytes", e.limitName());
    assertTrue(allocated < 3L * LdifLimits.DEFAULT_MAX_LINE_BYTES,
        "allocated " + allocated + " bytes for a 512 MiB line");
  }

  /** A stream of {@code head}, then {@code repeat} again and again, {@code total} bytes in all. */
  static InputStream endless(byte[] head, byte[] repeat, long total) {
    return new InputStream() {
      long pos;

      @Override
      public int read() {
        byte[] b = new byte[1];
        return read(b, 0, 1) < 0 ? -1 : b[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        int n = 0;
        while (n < len && pos < total) {
          b[off + n++] = pos < head.length ? head[(int) pos]
              : repeat[(int) ((pos - head.length) % repeat.length)];
          pos++;
        }
        return n == 0 ? -1 : n;
      }
    };
  }

  /** Returns its chunks one read at a time, as a socket or pipe might. */
  static final class ChunkedStream extends InputStream {
    private final List<byte[]> chunks;
    private int index;
    private int pos;

    ChunkedStream(List<byte[]> chunks) {
      this.chunks = chunks;
    }

    @Override
    public int read() {
      byte[] b = new byte[1];
      return read(b, 0, 1) < 0 ? -1 : b[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      while (index < chunks.size() && pos == chunks.get(index).length) {
        index++;
        pos = 0;
      }
      if (index == chunks.size()) {
        return -1;
      }
      byte[] c = chunks.get(index);
      int n = Math.min(len, c.length - pos);
      System.arraycopy(c, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
