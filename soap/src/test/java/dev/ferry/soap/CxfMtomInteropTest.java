package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.PeerMessages.Include;
import dev.ferry.soap.PeerMessages.Written;
import jakarta.activation.DataHandler;
import jakarta.activation.DataSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.cxf.attachment.AttachmentDeserializer;
import org.apache.cxf.attachment.AttachmentImpl;
import org.apache.cxf.attachment.AttachmentSerializer;
import org.apache.cxf.attachment.AttachmentUtil;
import org.apache.cxf.attachment.ByteDataSource;
import org.apache.cxf.message.Attachment;
import org.apache.cxf.message.Message;
import org.apache.cxf.message.MessageImpl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Apache CXF as the peer: MTOM packages written by its {@link AttachmentSerializer} read by
 * Ferry, and packages written by Ferry's XopWriter read by its {@link AttachmentDeserializer}.
 * Each carries a 1 MiB blob with every byte value and a zero-length blob.
 */
class CxfMtomInteropTest {
  static final byte[] BIG = PeerMessages.everyByteValue();
  static final byte[] EMPTY = new byte[0];
  static final SoapCodec SOAP = SoapCodec.create();

  static String envelope(SoapVersion v, String bigId, String emptyId) {
    return "<soap:Envelope xmlns:soap=\"" + v.namespace() + "\">"
        + "<soap:Header><wsa:Action xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">"
        + "urn:testMtom</wsa:Action></soap:Header><soap:Body>"
        + "<t:testMtom xmlns:t=\"" + PeerMessages.TYPES_NS + "\"><t:name>cxf</t:name>"
        + "<t:attachinfo><xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" "
        + "href=\"cid:" + bigId + "\"/></t:attachinfo>"
        + "<t:empty><xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" "
        + "href=\"cid:" + emptyId + "\"/></t:empty>"
        + "</t:testMtom></soap:Body></soap:Envelope>";
  }

  static AttachmentImpl attachment(String id, byte[] data) {
    AttachmentImpl a = new AttachmentImpl(id,
        new DataHandler(new ByteDataSource(data, "application/octet-stream")));
    a.setXOP(true);
    return a;
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void ferryReadsWhatCxfWrites(SoapVersion version) throws Exception {
    ferryReadsWhatCxfWrites(version, null);
  }

  /** CXF's attachment-transfer-encoding option: every part, the root too, base64. */
  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void ferryReadsWhatCxfWritesInBase64TransferEncoding(SoapVersion version) throws Exception {
    ferryReadsWhatCxfWrites(version, "base64");
  }

  void ferryReadsWhatCxfWrites(SoapVersion version, String transferEncoding) throws Exception {
    String bigId = "blob-1@cxf.apache.org";
    String emptyId = "blob-2@cxf.apache.org";
    String env = envelope(version, bigId, emptyId);
    MessageImpl msg = new MessageImpl();
    Collection<Attachment> atts = new ArrayList<>();
    atts.add(attachment(bigId, BIG));
    atts.add(attachment(emptyId, EMPTY));
    msg.setAttachments(atts);
    msg.put(Message.CONTENT_TYPE, version.mediaType());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    msg.setContent(OutputStream.class, out);
    AttachmentSerializer serializer = new AttachmentSerializer(msg);
    serializer.setXop(true);
    if (transferEncoding != null) {
      serializer.setContentTransferEncoding(transferEncoding);
    }
    serializer.writeProlog();
    byte[] root = env.getBytes(StandardCharsets.UTF_8);
    // CXF labels the root part with the same encoding but leaves encoding it to the caller
    out.write(transferEncoding == null ? root : java.util.Base64.getMimeEncoder().encode(root));
    serializer.writeAttachments();
    String contentType = (String) msg.get(Message.CONTENT_TYPE);
    assertThat(contentType).startsWith("multipart/related").contains("application/xop+xml");

    try (MessageBuffer buf = SOAP.read(new ByteArrayInputStream(out.toByteArray()),
        contentType)) {
      assertThat(buf.version()).isEqualTo(version);
      assertThat(buf.attachments().isXop()).isTrue();
      assertThat(buf.envelope().utf8()).isEqualTo(env);
      dev.ferry.soap.Message m = buf.toMessage();
      assertThat(m.addressing().action()).isEqualTo("urn:testMtom");
      assertThat(PeerMessages.bodyText(m, "name")).isEqualTo("cxf");
      List<Include> includes = PeerMessages.includes(m);
      assertThat(includes).extracting(Include::element, Include::contentId)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("attachinfo", bigId),
              org.assertj.core.groups.Tuple.tuple("empty", emptyId));
      assertThat(includes.get(0).bytes()).isEqualTo(ByteString.of(BIG));
      assertThat(includes.get(1).bytes().size()).isZero();
      assertThat(buf.attachments().attachment(bigId).bytes().toByteArray()).isEqualTo(BIG);
    }
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void cxfReadsWhatFerryWrites(SoapVersion version) throws Exception {
    for (byte[] blob : List.of(BIG, EMPTY)) {
      Written w = PeerMessages.ferryTestMtom(version, "ferry", blob);
      MessageImpl msg = new MessageImpl();
      msg.put(Message.CONTENT_TYPE, w.contentType());
      msg.setContent(InputStream.class, new ByteArrayInputStream(w.bytes()));
      new AttachmentDeserializer(msg).initializeAttachments();
      String root = new String(msg.getContent(InputStream.class).readAllBytes(),
          StandardCharsets.UTF_8);
      assertThat(root).contains(version.namespace()).contains("<t:name>ferry</t:name>");
      Matcher href = Pattern.compile("href=\"([^\"]+)\"").matcher(root);
      assertThat(href.find()).isTrue();
      assertThat(href.group(1)).startsWith("cid:");
      Collection<Attachment> atts = msg.getAttachments();
      DataSource ds = AttachmentUtil.getAttachmentDataSource(href.group(1), atts);
      assertThat(ds).as("CXF resolves %s", href.group(1)).isNotNull();
      try (InputStream in = ds.getInputStream()) {
        assertThat(in.readAllBytes()).isEqualTo(blob);
      }
      assertThat(atts).hasSize(1);
      Attachment a = atts.iterator().next();
      assertThat("cid:" + a.getId()).isEqualTo(href.group(1));
      assertThat(a.isXOP()).isTrue();
    }
  }
}
