package dev.ferry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class AccessLineTest {
  @Test
  void aLineNamesTheCallerRequestStatusSizesTimeAndNote() {
    Logger access = Logger.getLogger("dev.ferry.access");
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler h = new Handler() {
      @Override
      public void publish(LogRecord record) {
        lines.add(record.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Level level = access.getLevel();
    access.setLevel(Level.INFO);
    access.addHandler(h);
    try {
      HttpSoap.log("10.0.0.7", "POST", "/echo", 200, 4096, 4400, 1_234_567, null);
      HttpSoap.log("::1", "GET", "/echo?wsdl", 500, 0, 12, 50_000, "the endpoint failed");
      HttpSoap.log("::1", "POST", "/slow", 503, 1, 2, 12_345_678_901L, null);
    } finally {
      access.removeHandler(h);
      access.setLevel(level);
    }
    assertThat(lines).containsExactly(
        "10.0.0.7 \"POST /echo\" 200 in=4096 out=4400 1.2ms",
        "::1 \"GET /echo?wsdl\" 500 in=0 out=12 0.1ms the endpoint failed",
        "::1 \"POST /slow\" 503 in=1 out=2 12345.7ms");
  }
}
