package dev.ferry.cli;

import dev.ferry.mime.ContentIds;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MultipartWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ferry mime pack}: files in, one multipart/related message out, streaming. */
@Command(name = "pack", mixinStandardHelpOptions = true,
    description = "Write files as one multipart/related MIME message (headers, then body); the"
        + " first file is the root part. Bodies are streamed, not loaded.",
    footer = {"", "Each FILE may carry its Content-Type after a colon: photo.jpg:image/jpeg."
        + " Without one it is application/octet-stream.", "", "Examples:",
        "  ferry mime pack -o msg.eml envelope.xml:'application/xop+xml; charset=UTF-8;"
            + " type=\"text/xml\"' photo.jpg:image/jpeg --type application/xop+xml"
            + " --start-info text/xml",
        "  ferry mime pack -o swa.eml envelope.xml:text/xml report.pdf:application/pdf"})
final class MimePack implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"-o", "--out"}, required = true, paramLabel = "FILE",
      description = "Where to write the message.")
  Path out;

  @Option(names = "--type", paramLabel = "TYPE",
      description = "The type parameter: the root part's type (default: the root file's).")
  String type;

  @Option(names = "--start-info", paramLabel = "TYPE",
      description = "The start-info parameter (for MTOM: text/xml or application/soap+xml).")
  String startInfo;

  @Parameters(arity = "1..*", paramLabel = "FILE[:TYPE]",
      description = "Files to pack; the first is the root part.")
  List<String> files;

  record Input(Path path, String contentType) {}

  @Override
  public Integer call() throws IOException {
    List<Input> inputs = new ArrayList<>();
    for (String f : files) {
      inputs.add(parse(f));
    }
    List<String> ids = new ArrayList<>();
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 64 * 1024)) {
      MultipartWriter w = new MultipartWriter(o);
      for (int i = 0; i < inputs.size(); i++) {
        ids.add(w.nextContentId());
      }
      String rootType = type != null ? type
          : MediaType.parse(inputs.get(0).contentType()).baseType();
      MediaType messageType = w.contentType("related", "type", rootType,
          "start", "<" + ids.get(0) + ">");
      if (startInfo != null) {
        messageType = messageType.withParameter("start-info", startInfo);
      }
      o.write(("MIME-Version: 1.0\r\nContent-Type: " + messageType + "\r\n\r\n")
          .getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < inputs.size(); i++) {
        writePart(w, inputs.get(i), ids.get(i));
      }
      w.close();
    }
    var console = spec.commandLine().getOut();
    for (int i = 0; i < inputs.size(); i++) {
      console.println(ContentIds.toCidUrl(ids.get(i)) + "  " + inputs.get(i).path());
    }
    console.println("wrote " + Files.size(out) + " bytes to " + out);
    return 0;
  }

  private static void writePart(MultipartWriter w, Input in, String id) throws IOException {
    MimeHeaders headers = MimeHeaders.builder().add("Content-Type", in.contentType())
        .add("Content-Transfer-Encoding", "binary").add("Content-ID", "<" + id + ">").build();
    try (InputStream body = Files.newInputStream(in.path())) {
      w.writePart(headers, body);
    }
  }

  private static Input parse(String spec) throws MimeException {
    int colon = spec.indexOf(':');
    // A Windows drive letter ("C:\...") is not a type separator.
    if (colon == 1 && spec.length() > 2 && (spec.charAt(2) == '\\' || spec.charAt(2) == '/')) {
      colon = spec.indexOf(':', 2);
    }
    if (colon < 0) {
      return new Input(Path.of(spec), "application/octet-stream");
    }
    String t = spec.substring(colon + 1);
    MediaType.parse(t); // fail early, with the parser's message, on a bad type
    return new Input(Path.of(spec.substring(0, colon)), t);
  }
}
