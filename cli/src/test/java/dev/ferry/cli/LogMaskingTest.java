package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Log lines with secrets in every place a SOAP, HTTP or LDAP message puts them: none of the
 * secrets survives masking, in the text format or the JSON one, and what is not secret stays.
 */
class LogMaskingTest {
  /** Each line holds the secret "S3cr3t-…" once or more; nothing else in it is secret. */
  static List<String> corpus() {
    return List.of(
        "POST /echo headers: {Authorization=Basic YWxpY2U6UzNjcjN0LWE=, Content-Type=text/xml}",
        "Authorization: Bearer S3cr3t-b.token.value",
        "proxy-authorization: Digest username=\"bob\", response=\"S3cr3t-c\"",
        "{\"Authorization\":\"Basic S3cr3t-d\",\"SOAPAction\":\"urn:x\"}",
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Header>"
            + "<wsse:Security xmlns:wsse=\"urn:wsse\"><wsse:UsernameToken><wsse:Username>alice"
            + "</wsse:Username><wsse:Password Type=\"urn:x#PasswordText\">S3cr3t-e</wsse:Password>"
            + "</wsse:UsernameToken></wsse:Security></s:Header><s:Body/></s:Envelope>",
        "<wsse:Password Type=\"urn:x#PasswordText\"><![CDATA[S3cr3t-f <&>]]></wsse:Password>",
        "<Password>S3cr3t-g</Password><other>kept</other>",
        "truncated message: <s:Body><login><password>S3cr3t-h",
        "<login user=\"alice\" password=\"S3cr3t-i\" apiKey='S3cr3t-j'/>",
        "<clientSecret>S3cr3t-k</clientSecret>",
        "GET /wsdl?user=alice&password=S3cr3t-l&x=1",
        "settings: trustPassword=S3cr3t-m, keyPassword: S3cr3t-n; token=S3cr3t-o",
        "{\"password\": \"S3cr3t-p with spaces\", \"user\": \"alice\"}",
        "dn: uid=alice,dc=example,dc=com\nuserPassword: S3cr3t-q\ncn: Alice",
        "dn: uid=bob,dc=example,dc=com\nuserPassword:: UzNjcjN0LXI=",
        "simple bind as cn=admin,dc=example,dc=com credentials=S3cr3t-s",
        "payment <cardNumber>4111 1111 1111 1111</cardNumber> and 5500-0000-0000-0004");
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void noSecretSurvives(String line) {
    String masked = LogMasking.mask(line);
    assertThat(masked).doesNotContain("S3cr3t").doesNotContain("YWxpY2U6UzNjcjN0LWE")
        .doesNotContain("UzNjcjN0LXI").doesNotContain("4111 1111").doesNotContain("5500-0000")
        .contains(LogMasking.MASK);
    for (ServerLoggingFormat f : ServerLoggingFormat.values()) {
      assertThat(f.format(line)).doesNotContain("S3cr3t").doesNotContain("UzNjcjN0LXI");
    }
  }

  @Test
  void whatIsNotSecretStays() {
    String access = "127.0.0.1 \"POST /echo\" 200 in=1843 out=1901 1.2ms";
    assertThat(LogMasking.mask(access)).isSameAs(access);
    assertThat(LogMasking.mask("<wsse:Username>alice</wsse:Username><wsse:Password>x"
        + "</wsse:Password><s:Body>hello</s:Body>"))
        .contains("alice").contains("hello").doesNotContain(">x<");
    assertThat(LogMasking.mask("order 1234567890123 shipped")) // fails the Luhn check
        .contains("1234567890123");
  }

  @Test
  void jsonLinesCarryTheTraceOfTheSpanTheyAreWrittenIn() {
    SpanContext context = SpanContext.create("0af7651916cd43dd8448eb211c80319c",
        "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
    LogRecord r = new LogRecord(Level.WARNING, "backend refused: password=S3cr3t-x \"quoted\"");
    r.setLoggerName("dev.ferry.broker");
    r.setThrown(new IllegalStateException("token=S3cr3t-y"));
    String line;
    try (Scope ignored = Span.wrap(context).makeCurrent()) {
      line = new ServerLogging.JsonLine().format(r);
    }
    assertThat(line).startsWith("{\"time\":\"").endsWith("}" + System.lineSeparator())
        .contains("\"level\":\"WARNING\"", "\"logger\":\"dev.ferry.broker\"",
            "\"trace_id\":\"0af7651916cd43dd8448eb211c80319c\"",
            "\"span_id\":\"b7ad6b7169203331\"", "\\\"quoted\\\"", "\"error\":")
        .doesNotContain("S3cr3t");
    assertThat(new ServerLogging.JsonLine().format(r)).doesNotContain("trace_id");
  }

  /** Both line formats, over a record whose message is the line. */
  private enum ServerLoggingFormat {
    TEXT(new ServerLogging.OneLine()), JSON(new ServerLogging.JsonLine());

    private final java.util.logging.Formatter formatter;

    ServerLoggingFormat(java.util.logging.Formatter formatter) {
      this.formatter = formatter;
    }

    String format(String message) {
      LogRecord r = new LogRecord(Level.INFO, message);
      r.setLoggerName("dev.ferry.access");
      return formatter.format(r);
    }
  }
}
