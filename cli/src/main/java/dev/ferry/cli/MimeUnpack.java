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
import java.nio.file.StandardCopyOption;
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
 * only: names from the message (Content-ID, filename) never become paths. A part is written to
 * {@code <name>.partial} and renamed when it is whole, so a message cut short leaves the parts
 * before the cut and no part that looks whole but is not; the partial file is deleted.
 * {@code index.tsv} is written once every part is, with each value from the message escaped.
 */
@Command(name = "unpack", mixinStandardHelpOptions = true,
    description = "Write each part of a multipart message to its own file (transfer encoding"
        + " undone), and an index.tsv that maps files to Content-IDs and types. A part is"
        + " written as NAME.partial and renamed when whole: a message cut short leaves no"
        + " partial part. Content-IDs and types are escaped (\\\\, \\t, \\xNN).",
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
    PrintWriter err = spec.commandLine().getErr();
    MimeInspect.printWarnings(err, opened.headers());
    int count = 0;
    try (var reader = opened.reader()) {
      for (Part p; (p = reader.nextPart()) != null; count++) {
        MimeInspect.printWarnings(err, p.headers());
        MediaType type = p.headers().contentType();
        String name = "part-" + p.index() + extension(type);
        long n = write(p, dir.resolve(name));
        String id = Printable.escape(p.contentId());
        index.append(name).append('\t').append(id).append('\t')
            .append(type == null ? "" : Printable.escape(type.toString())).append('\t').append(n)
            .append('\n');
        console.printf("%-14s %10d  %s%n", name, n, id == null ? "" : id);
      }
    }
    Files.writeString(dir.resolve("index.tsv"), index, StandardCharsets.UTF_8);
    console.println(count + " parts written to " + dir);
    return 0;
  }

  /**
   * Writes the part's decoded body to {@code target} through a {@code .partial} file, renamed
   * once the body has ended at its delimiter; deleted if the body fails (a truncated message,
   * a malformed transfer encoding). Returns the decoded size.
   */
  private static long write(Part p, Path target) throws IOException {
    Path partial = target.resolveSibling(target.getFileName() + ".partial");
    long n;
    try (InputStream body = p.decodedBody(); OutputStream o = Files.newOutputStream(partial)) {
      n = body.transferTo(o);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(partial);
      throw e;
    }
    Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    return n;
  }

  private static String extension(MediaType type) {
    return type == null ? ".bin"
        : EXTENSIONS.getOrDefault(type.baseType().toLowerCase(Locale.ROOT), ".bin");
  }
}
