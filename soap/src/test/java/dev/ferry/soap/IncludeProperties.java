package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopException;
import dev.ferry.xop.XopPackage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The SOAP layer finds an XOP root's {@code xop:Include} elements in the pass that indexes the
 * envelope, where the XOP layer alone parses the root for them: both must accept and refuse the
 * same packages, with the same reason. Differential: {@link XopCodec#read} is the reference.
 */
class IncludeProperties {
  private static final SoapCodec SOAP = SoapCodec.create();
  private static final String XOP_NS = "http://www.w3.org/2004/08/xop/include";
  private static final MediaType TYPE = type();

  /** Where an Include sits: 0 a header block, 1 inside one, 2 the Body's first child, 3 deep. */
  record Include(int place, String href, boolean defaultNamespace) {
    String xml() {
      String attr = href == null ? "" : " href=\"" + href + "\"";
      return defaultNamespace ? "<Include xmlns=\"" + XOP_NS + "\"" + attr + "/>"
          : "<xop:Include xmlns:xop=\"" + XOP_NS + "\"" + attr + "/>";
    }
  }

  @Property(tries = 400)
  void indexAndPackageAgree(@ForAll("includes") List<Include> includes,
      @ForAll boolean secondPart, @ForAll boolean forward) throws IOException {
    String msg = message(envelope(includes), secondPart);
    String expected = outcome(() -> {
      try (XopPackage pkg = XopCodec.create().read(bytes(msg).asInputStream(), TYPE)) {
        consume(pkg, forward);
      }
    });
    String actual = outcome(() -> {
      try (MessageBuffer buf = SOAP.read(bytes(msg), TYPE)) {
        consume(buf.attachments(), forward);
      }
    });
    assertThat(actual).as(msg).isEqualTo(expected);
  }

  @Example
  void aMissingPartIsFoundWhenTheSoapMessageIsReadToItsEnd() throws IOException {
    String msg = message(envelope(List.of(new Include(2, "cid:missing@x", false))), false);
    try (MessageBuffer buf = SOAP.read(bytes(msg), TYPE)) {
      assertThatThrownBy(() -> buf.attachments().attachments())
          .isInstanceOf(XopException.class)
          .hasMessageContaining("Content-ID <missing@x>, which no part of the package has");
    }
  }

  @Example
  void aBodyReadForItsIncludesIsCheckedForWhatFollowsIt() {
    String env = envelope(List.of(new Include(3, "cid:a@b", false)))
        .replace("</s:Body>", "</s:Body><s:Body/>");
    assertThatThrownBy(() -> SOAP.read(bytes(message(env, false)), TYPE))
        .isInstanceOf(SoapException.class).hasMessageContaining("after the Body")
        .satisfies(e -> assertThat(((SoapException) e).byteOffset())
            .isEqualTo(env.indexOf("<s:Body/>")));
  }

  @Example
  void anIncludeRefusedInTheIndexNamesItsByteOffset() {
    String env = envelope(List.of(new Include(2, "http://127.0.0.1:1/x", false)));
    assertThatThrownBy(() -> SOAP.read(bytes(message(env, true)), TYPE))
        .isInstanceOf(XopException.class)
        .hasMessageContaining("not a cid: URL")
        .satisfies(e -> assertThat(((XopException) e).byteOffset())
            .isEqualTo(env.indexOf("<xop:Include")));
  }

  private interface Step {
    void run() throws IOException;
  }

  /** "ok", or the failure's type and reason. */
  private static String outcome(Step step) {
    try {
      step.run();
      return "ok";
    } catch (IOException | RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + (e instanceof XopException x ? x.reason()
          : e.getMessage());
    }
  }

  private static void consume(XopPackage pkg, boolean forward) throws IOException {
    if (forward) {
      pkg.forwardAttachments(new MultipartWriter(new ByteArrayOutputStream()));
    } else {
      pkg.attachments();
    }
  }

  private static String envelope(List<Include> includes) {
    StringBuilder header = new StringBuilder();
    StringBuilder first = new StringBuilder();
    StringBuilder deep = new StringBuilder();
    for (Include i : includes) {
      switch (i.place()) {
        case 0 -> header.append(i.xml());
        case 1 -> header.append("<h:b xmlns:h=\"urn:h\">").append(i.xml()).append("</h:b>");
        case 2 -> first.append(i.xml());
        default -> deep.append("<m:d><m:e>").append(i.xml()).append("</m:e></m:d>");
      }
    }
    String body = first.length() > 0 ? first.toString()
        : "<m:op xmlns:m=\"urn:m\"><m:v>text</m:v>" + deep + "</m:op>";
    if (first.length() > 0 && deep.length() > 0) {
      body += "<m:op xmlns:m=\"urn:m\">" + deep + "</m:op>";
    }
    return "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + (header.length() > 0 ? "<s:Header>" + header + "</s:Header>" : "")
        + "<s:Body>" + body + "</s:Body></s:Envelope>";
  }

  private static String message(String envelope, boolean secondPart) {
    String parts = "--b\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\""
        + "\r\nContent-ID: <root@x>\r\n\r\n" + envelope
        + "\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-ID: <a@b>\r\n\r\nhello";
    if (secondPart) {
      parts += "\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-ID: <c@d>\r\n\r\nbye";
    }
    return parts + "\r\n--b--\r\n";
  }

  private static MediaType type() {
    try {
      return MediaType.parse("multipart/related; boundary=b; type=\"application/xop+xml\";"
          + " start=\"<root@x>\"; start-info=\"text/xml\"");
    } catch (dev.ferry.mime.MimeException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ByteString bytes(String s) {
    return ByteString.encodeUtf8(s);
  }

  @Provide
  Arbitrary<List<Include>> includes() {
    Arbitrary<String> hrefs = Arbitraries.of("cid:a@b", "cid:c@d", "cid:missing@x",
        "cid:root@x", "http://127.0.0.1:1/x", "cid:", "none").map(h -> Objects.equals(h, "none")
            ? null : h);
    return Combinators.combine(Arbitraries.integers().between(0, 3), hrefs,
        Arbitraries.of(true, false)).as(Include::new).list().ofMaxSize(4);
  }
}
