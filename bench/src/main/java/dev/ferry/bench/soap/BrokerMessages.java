package dev.ferry.bench.soap;

import java.nio.charset.StandardCharsets;

/** The message a broker forwards: SOAP 1.2 with WS-Addressing 1.0 headers and a body of n bytes. */
public final class BrokerMessages {
  public static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
  public static final String WSA = "http://www.w3.org/2005/08/addressing";
  public static final String CONTENT_TYPE = "application/soap+xml; charset=utf-8";
  public static final String ACTION = "urn:example:broker:echo";
  public static final String OLD_TO = "http://broker.example/in";
  public static final String NEW_TO = "http://backend.example:8080/service/echo";

  private BrokerMessages() {}

  /** Returns an envelope whose Body element is about {@code bodyBytes} long (at least). */
  public static byte[] envelope(int bodyBytes) {
    StringBuilder b = new StringBuilder(bodyBytes + 1024);
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<soap:Envelope xmlns:soap=\"").append(SOAP12).append("\" xmlns:wsa=\"")
        .append(WSA).append("\">\n  <soap:Header>\n")
        .append("    <wsa:To>").append(OLD_TO).append("</wsa:To>\n")
        .append("    <wsa:Action>").append(ACTION).append("</wsa:Action>\n")
        .append("    <wsa:MessageID>urn:uuid:6b29fc40-ca47-1067-b31d-00dd010662da"
            + "</wsa:MessageID>\n")
        .append("    <wsa:ReplyTo><wsa:Address>").append(WSA)
        .append("/anonymous</wsa:Address></wsa:ReplyTo>\n  </soap:Header>\n");
    int bodyStart = b.length();
    b.append("  <soap:Body>\n    <t:echo xmlns:t=\"urn:example:types\">\n");
    for (int i = 0; b.length() - bodyStart < bodyBytes - 40; i++) {
      b.append("      <t:item n=\"").append(i)
          .append("\">The quick brown fox jumps over the lazy dog</t:item>\n");
    }
    b.append("    </t:echo>\n  </soap:Body>\n</soap:Envelope>\n");
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }
}
