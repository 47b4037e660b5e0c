package dev.ferry.cli;

import dev.ferry.mime.MediaType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/** Just enough JSON writing for the CLI's --json output (no dependency for four fields). */
final class Json {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Json() {}

  static String inspect(MediaType type, boolean lenient, List<MimeInspect.Row> rows) {
    StringBuilder s = new StringBuilder("{\"contentType\":").append(str(type.toString()))
        .append(",\"lenientLineEnds\":").append(lenient).append(",\"parts\":[");
    for (int i = 0; i < rows.size(); i++) {
      MimeInspect.Row r = rows.get(i);
      s.append(i == 0 ? "" : ",").append("{\"index\":").append(r.index())
          .append(",\"contentId\":").append(str(r.contentId()))
          .append(",\"contentType\":").append(str(r.type()))
          .append(",\"transferEncoding\":").append(str(r.encoding()))
          .append(",\"wireBytes\":").append(r.wireBytes())
          .append(",\"decodedBytes\":").append(r.decodedBytes())
          .append(",\"sha256Prefix\":").append(str(r.sha256())).append(",\"warnings\":[");
      for (int w = 0; w < r.warnings().size(); w++) {
        s.append(w == 0 ? "" : ",").append(str(r.warnings().get(w)));
      }
      s.append("]}");
    }
    return s.append("]}").toString();
  }

  /** A number with up to three decimals, a dot as separator whatever the locale. */
  static String num(double v) {
    if (!Double.isFinite(v)) {
      return "null";
    }
    return new BigDecimal(v).setScale(3, RoundingMode.HALF_EVEN)
        .stripTrailingZeros().toPlainString();
  }

  static String str(String v) {
    return v == null ? "null" : str(new StringBuilder(v.length() + 8), v).toString();
  }

  /** Appends {@code v} to {@code s} as a JSON string (quoted and escaped); returns {@code s}. */
  static StringBuilder str(StringBuilder s, String v) {
    if (v == null) {
      return s.append("null");
    }
    s.append('"');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> s.append("\\\"");
        case '\\' -> s.append("\\\\");
        default -> {
          if (c < 0x20) {
            s.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
          } else {
            s.append(c);
          }
        }
      }
    }
    return s.append('"');
  }
}
