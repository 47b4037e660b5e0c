package dev.ferry.cli;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MimeWarning;
import dev.ferry.mime.Part;
import dev.ferry.mime.TransferEncodings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry mime inspect}: lists the parts of a message without keeping any body. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = "List the parts of a multipart message: Content-ID, type, transfer encoding,"
        + " size on the wire and decoded, SHA-256. Bodies stream; nothing is held in memory."
        + " Values from the message are printed escaped (\\\\, \\t, \\xNN); --json has"
        + " them exact.",
    footer = {"", "Examples:", "  ferry mime inspect samples/mtom-echo.eml",
        "  ferry mime inspect body.bin --content-type 'multipart/related; boundary=b1' --json"})
final class MimeInspect implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE",
      description = "A MIME entity (headers and body), an HTTP request, or a bare body.")
  Path file;

  @Mixin MessageOptions message;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  /** One part; {@code warnings} are what lenient header parsing read past. */
  record Row(int index, String contentId, String type, String encoding, long wireBytes,
      long decodedBytes, String sha256, List<String> warnings) {}

  @Override
  public Integer call() throws IOException {
    var opened = message.open(file);
    List<Row> rows = new ArrayList<>();
    PrintWriter err = spec.commandLine().getErr();
    printWarnings(err, opened.headers());
    try (var reader = opened.reader()) {
      for (Part p; (p = reader.nextPart()) != null; ) {
        printWarnings(err, p.headers());
        rows.add(describe(p));
      }
    }
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.inspect(opened.contentType(), opened.lenient(), rows));
    } else {
      printTable(out, opened.contentType(), opened.lenient(), rows);
    }
    return 0;
  }

  private static Row describe(Part p) throws IOException {
    MediaType type = p.headers().contentType();
    String cte = p.headers().contentTransferEncoding();
    MessageDigest sha = sha256();
    long decoded;
    long wire;
    if (TransferEncodings.isIdentity(cte)) {
      decoded = copy(p.body(), sha);
      wire = decoded;
    } else {
      CountingInputStream counting = new CountingInputStream(p.body());
      decoded = copy(TransferEncodings.decode(cte, counting, p.bodyOffset(),
          "part " + p.index() + " > body"), sha);
      wire = counting.count;
    }
    return new Row(p.index(), p.contentId(), type == null ? "(none)" : type.toString(),
        cte == null ? "(none)" : cte, wire, decoded,
        HexFormat.of().formatHex(sha.digest()).substring(0, 16),
        p.headers().warnings().stream().map(MimeWarning::toString).toList());
  }

  /** Prints what lenient header parsing read past, a line each, escaped (it may quote input). */
  static void printWarnings(PrintWriter err, MimeHeaders headers) {
    for (MimeWarning w : headers.warnings()) {
      err.println("ferry: warning: " + Printable.escape(w.toString()));
    }
  }

  private static long copy(InputStream in, MessageDigest sha) throws IOException {
    return in.transferTo(new OutputStream() {
      @Override
      public void write(int b) {
        sha.update((byte) b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        sha.update(b, off, len);
      }
    });
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The table: every value from the message escaped, so none can move a column or the cursor. */
  private static void printTable(PrintWriter out, MediaType type, boolean lenient,
      List<Row> rows) {
    out.println(Printable.escape(type.toString()));
    out.println(rows.size() + " parts" + (lenient ? " (bare LF line ends accepted)" : ""));
    out.printf("%-3s %-44s %-36s %-17s %10s %10s  %s%n", "#", "Content-ID", "Content-Type",
        "Transfer-Encoding", "wire", "decoded", "sha256");
    for (Row r : rows) {
      out.printf("%-3d %-44s %-36s %-17s %10d %10d  %s%n", r.index(),
          clip(Printable.escape(r.contentId()), 44), clip(Printable.escape(r.type()), 36),
          Printable.escape(r.encoding()), r.wireBytes(), r.decodedBytes(), r.sha256());
    }
  }

  private static String clip(String s, int width) {
    if (s == null) {
      return "(none)";
    }
    return s.length() <= width ? s : s.substring(0, width - 1) + "…";
  }

  /** Counts the wire bytes under a decoder. */
  static final class CountingInputStream extends java.io.FilterInputStream {
    long count;

    CountingInputStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int c = super.read();
      if (c >= 0) {
        count++;
      }
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
