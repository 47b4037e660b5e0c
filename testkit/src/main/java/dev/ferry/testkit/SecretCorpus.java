package dev.ferry.testkit;

import java.util.List;
import java.util.Map;

/**
 * SOAP envelopes and HTTP headers with secrets in every place a message puts them: WS-Security
 * and custom SOAP headers, Body elements, attributes, CDATA, elements and attributes an
 * application names ({@code pin}, {@code iban}), card numbers, and the headers Authorization,
 * Cookie, X-Api-Key and X-Session (the last one an application names). Every secret holds
 * "S3cr3t" or is a card number; {@link #leaked} finds any of them in a log.
 */
public final class SecretCorpus {
  private static final String ENV =
      "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">";
  private static final List<String> MARKERS = List.of("S3cr3t", "UzNjcjN0", "4111 1111",
      "1111 1111", "5500-0000", "0000-0004");

  private SecretCorpus() {}

  /** The names an application adds to the masked ones. */
  public static final List<String> NAMES = List.of("pin", "iban");
  /** The header an application adds to the masked ones. */
  public static final String HEADER = "X-Session";

  /** SOAP 1.1 envelopes, each with "alice" in it as something that is not secret. */
  public static List<String> envelopes() {
    return List.of(
        ENV + "<s:Header><wsse:Security xmlns:wsse=\"urn:wsse\"><wsse:UsernameToken>"
            + "<wsse:Username>alice</wsse:Username><wsse:Password Type=\"urn:x#PasswordText\">"
            + "S3cr3t-header</wsse:Password></wsse:UsernameToken></wsse:Security>"
            + "<a:SessionToken xmlns:a=\"urn:a\">S3cr3t-token</a:SessionToken></s:Header>"
            + "<s:Body><ping>alice</ping></s:Body></s:Envelope>",
        ENV + "<s:Body><login><user>alice</user><password>S3cr3t-body</password>"
            + "<clientSecret>S3cr3t-client</clientSecret></login></s:Body></s:Envelope>",
        ENV + "<s:Body><login user=\"alice\" password=\"S3cr3t-attr\" apiKey='S3cr3t-key'/>"
            + "</s:Body></s:Envelope>",
        ENV + "<s:Body><login><user>alice</user><wsse:Password xmlns:wsse=\"urn:wsse\">"
            + "<![CDATA[S3cr3t-cdata <&> </x>]]></wsse:Password></login></s:Body></s:Envelope>",
        ENV + "<s:Body><pay xmlns:p=\"urn:p\"><user>alice</user><p:PIN>S3cr3t-pin</p:PIN>"
            + "<account iban=\"S3cr3t-iban\"/><cardNumber>4111 1111 1111 1111</cardNumber>"
            + "<note>or 5500-0000-0000-0004</note></pay></s:Body></s:Envelope>");
  }

  /** HTTP headers with secrets, beside a SOAPAction that is not one. */
  public static List<Map.Entry<String, String>> headers() {
    return List.of(
        Map.entry("SOAPAction", "\"urn:login\""),
        Map.entry("Authorization", "Basic YWxpY2U6UzNjcjN0LWE="),
        Map.entry("Cookie", "JSESSIONID=S3cr3t-cookie"),
        Map.entry(HEADER, "S3cr3t-session"),
        Map.entry("X-Api-Key", "S3cr3t-apikey"));
  }

  /** The first secret of this corpus that {@code text} shows, or null if it shows none. */
  public static String leaked(String text) {
    for (String m : MARKERS) {
      if (text.contains(m)) {
        return m;
      }
    }
    return null;
  }
}
