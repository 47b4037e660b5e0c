package dev.ferry.cli;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.Part;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ferry mime unpack}: one file per part, decoded. File names come from the part index
 * only: names from the message (Content-ID, filename) never become paths.
 */
@Command(name = "unpack", mixinStandardHelpOptions = true,
    description = "Write each part of a multipart message to its own file (transfer encoding"
        + " undone), and an index.tsv that maps files to Content-IDs and types.",
    footer = {"", "Examples:", "  ferry mime unpack samples/mtom-echo.eml -d out/"})
final class MimeUnpack implements Callable<Integer> {
  private static final Map<String, String> EXTENSIONS = Map.of("text/xml", ".xml",
      "application/xml", ".xml", "application/xop+xml", ".xml", "application/soap+xml", ".xml",
      "text/plain", ".txt", "image/jpeg", ".jpg", "image/png", ".png", "application/pdf", ".pdf");

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The message to take apart.")
  Path file;

  @Option(names = {"-d", "--dir"}, required = true, paramLabel = "DIR",
      description = "Directory for the parts (created if missing).")
  Path dir;

  @Mixin MessageOptions message;

  @Override
  public Integer call() throws IOException {
    Files.createDirectories(dir);
    var opened = message.open(file);
    PrintWriter console = spec.commandLine().getOut();
    StringBuilder index = new StringBuilder("file\tcontent_id\tcontent_type\tbytes\n");
    int count = 0;
    try (var reader = opened.reader()) {
      for (Part p; (p = reader.nextPart()) != null; count++) {
        MediaType type = p.headers().contentType();
        String name = "part-" + p.index() + extension(type);
        long n;
        try (InputStream body = p.decodedBody();
            OutputStream o = Files.newOutputStream(dir.resolve(name))) {
          n = body.transferTo(o);
        }
        index.append(name).append('\t').append(p.contentId()).append('\t')
            .append(type == null ? "" : type).append('\t').append(n).append('\n');
        console.printf("%-14s %10d  %s%n", name, n, p.contentId() == null ? "" : p.contentId());
      }
    }
    Files.writeString(dir.resolve("index.tsv"), index, StandardCharsets.UTF_8);
    console.println(count + " parts written to " + dir);
    return 0;
  }

  private static String extension(MediaType type) {
    return type == null ? ".bin"
        : EXTENSIONS.getOrDefault(type.baseType().toLowerCase(Locale.ROOT), ".bin");
  }
}
