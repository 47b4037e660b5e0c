package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The commands' log lines, text and JSON: masked, and JSON ones with the current trace. */
class ServerLoggingTest {
  @ParameterizedTest
  @ValueSource(strings = {
      "Authorization: Bearer S3cr3t-b.token.value",
      "<wsse:Password Type=\"urn:x#PasswordText\"><![CDATA[S3cr3t-f <&>]]></wsse:Password>",
      "<login user=\"alice\" password=\"S3cr3t-i\" apiKey='S3cr3t-j'/>",
      "dn: uid=alice,dc=example,dc=com\nuserPassword: S3cr3t-q\ncn: Alice"})
  void bothFormatsMask(String line) {
    for (java.util.logging.Formatter f : new java.util.logging.Formatter[] {
        new ServerLogging.OneLine(), new ServerLogging.JsonLine()}) {
      LogRecord r = new LogRecord(Level.INFO, line);
      r.setLoggerName("dev.ferry.access");
      assertThat(f.format(r)).doesNotContain("S3cr3t").contains("***");
    }
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

  @Test
  void jsonTimesAreUtcToTheMillisecond() {
    for (String t : new String[] {"2026-11-29T05:50:07.004Z", "2026-11-29T05:50:00.000Z",
        "1969-12-31T23:59:59.999Z", "2026-11-29T05:50:07.120Z"}) {
      LogRecord r = new LogRecord(Level.INFO, "x");
      r.setInstant(java.time.Instant.parse(t));
      assertThat(new ServerLogging.JsonLine().format(r)).startsWith("{\"time\":\"" + t + "\",");
    }
    ServerLogging.JsonLine one = new ServerLogging.JsonLine(); // its second is reused
    LogRecord a = new LogRecord(Level.INFO, "a");
    a.setInstant(java.time.Instant.parse("2026-11-29T05:50:07.004Z"));
    LogRecord b = new LogRecord(Level.INFO, "line\nbreak \"q\" \u0001");
    b.setInstant(java.time.Instant.parse("2026-11-29T05:50:07.870Z"));
    one.format(a);
    assertThat(one.format(b)).startsWith("{\"time\":\"2026-11-29T05:50:07.870Z\",")
        .contains("\"message\":\"line\\u000abreak \\\"q\\\" \\u0001\"");
  }

  @Test
  void messageLogRecordsAreWrittenAsTheirLogMaskedThem() {
    // masked with the names the deployment gave its MessageLog; the default rules would not
    // know "pin", and run over the record for nothing
    String record = "request 1 POST /echo from 10.0.0.7\n\n<pin>***</pin><a>kept</a>";
    for (java.util.logging.Formatter f : new java.util.logging.Formatter[] {
        new ServerLogging.OneLine(), new ServerLogging.JsonLine()}) {
      LogRecord r = new LogRecord(Level.INFO, record);
      r.setLoggerName(dev.ferry.logging.MessageLog.LOGGER);
      assertThat(ServerLogging.maskedMessage(f, r)).isSameAs(record);
      r.setLoggerName("dev.ferry.access");
      assertThat(ServerLogging.maskedMessage(f, r)).isEqualTo(record);
    }
  }
}
