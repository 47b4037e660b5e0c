package dev.ferry.bench.mime;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * A CXF-framed MTOM message built once per trial: a small SOAP root part
 * ({@code application/xop+xml}) with an {@code xop:Include}, then one binary attachment. The
 * framing is byte for byte what CXF's {@code AttachmentSerializer} writes: a CRLF before the first
 * delimiter and no CRLF after the closing one.
 */
public final class MtomMessage {
  /** CXF's boundary style: "uuid:" and a UUID. */
  public static final String BOUNDARY = "uuid:0b5c9c1e-3f1a-4d7e-9b8a-2f6d1c4e7a90";
  public static final String ROOT_ID = "root.message@cxf.apache.org";
  public static final String ATTACHMENT_ID = "1.bench@ferry.dev";
  public static final String CONTENT_TYPE = "multipart/related; type=\"application/xop+xml\"; "
      + "boundary=\"" + BOUNDARY + "\"; start=\"<" + ROOT_ID + ">\"; start-info=\"text/xml\"";
  public static final String ROOT_CONTENT_TYPE =
      "application/xop+xml; charset=UTF-8; type=\"text/xml\"";
  public static final byte[] ROOT_BODY = ("<soap:Envelope"
      + " xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
      + "<soap:Body><ns2:upload xmlns:ns2=\"http://ferry.dev/bench\"><name>payload.bin</name><data>"
      + "<xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" href=\"cid:"
      + ATTACHMENT_ID + "\"/></data></ns2:upload></soap:Body></soap:Envelope>")
      .getBytes(StandardCharsets.UTF_8);

  /** The attachment bytes. */
  public final byte[] attachment;
  /** The whole multipart body, as sent after the HTTP headers. */
  public final byte[] message;
  /** CRC-32 of {@link #attachment}, to check every implementation read it right. */
  public final long attachmentCrc;

  private MtomMessage(byte[] attachment, byte[] message) {
    this.attachment = attachment;
    this.message = message;
    CRC32 crc = new CRC32();
    crc.update(attachment);
    this.attachmentCrc = crc.getValue();
  }

  /**
   * Builds a message whose attachment has {@code size} bytes of {@code body}: "random" bytes, or
   * "adversarial" ones: repeated 50-byte units of CRLF "--" and the boundary with its last
   * character changed (a delimiter that fails at its last byte), then 5 random filler bytes;
   * or "adversarial-early": the same with the boundary's first character changed instead, so
   * each unit ends with the delimiter's last byte (a diagnosis variant, harder for Horspool).
   */
  public static MtomMessage build(int size, String body) {
    byte[] att = attachment(size, body);
    ByteArrayOutputStream out = new ByteArrayOutputStream(size + 1024);
    write(out, "\r\n--" + BOUNDARY + "\r\n"
        + "Content-Type: " + ROOT_CONTENT_TYPE + "\r\n"
        + "Content-Transfer-Encoding: binary\r\n"
        + "Content-ID: <" + ROOT_ID + ">\r\n"
        + "\r\n");
    out.writeBytes(ROOT_BODY);
    write(out, "\r\n--" + BOUNDARY + "\r\n"
        + "Content-Type: application/octet-stream\r\n"
        + "Content-Transfer-Encoding: binary\r\n"
        + "Content-ID: <" + ATTACHMENT_ID + ">\r\n"
        + "\r\n");
    out.writeBytes(att);
    write(out, "\r\n--" + BOUNDARY + "--");
    return new MtomMessage(att, out.toByteArray());
  }

  static byte[] attachment(int size, String body) {
    Random random = new Random(42 + size);
    byte[] att = new byte[size];
    switch (body) {
      case "random" -> random.nextBytes(att);
      case "adversarial", "adversarial-early" -> {
        byte[] nearMiss = ("\r\n--" + BOUNDARY).getBytes(StandardCharsets.ISO_8859_1);
        if (body.equals("adversarial")) {
          nearMiss[nearMiss.length - 1] = 'X'; // '0' in the real one
        } else {
          nearMiss[4] = 'X'; // the boundary's first character: fails early, ends like the real one
        }
        int unit = 50;
        byte[] filler = new byte[unit - nearMiss.length];
        for (int i = 0; i < size; i += unit) {
          System.arraycopy(nearMiss, 0, att, i, Math.min(nearMiss.length, size - i));
          int f = i + nearMiss.length;
          if (f < size) {
            random.nextBytes(filler);
            System.arraycopy(filler, 0, att, f, Math.min(filler.length, size - f));
          }
        }
      }
      default -> throw new IllegalArgumentException("body: " + body);
    }
    return att;
  }

  private static void write(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
  }
}
