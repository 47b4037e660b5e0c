package dev.ferry.jaxws.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebServiceException;
import java.io.InputStream;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/** Requests and responses written through JAXB and XopWriter, and read back. */
class MessageBinderTest {
  static final SeiModel ECHO = SeiModel.of(MtomEchoPort.class);
  static final SeiModel SHAPES = SeiModel.of(ShapesPort.class);
  static final MessageBinder BINDER = new MessageBinder(Wire.CODEC);

  @Test
  void anAttachedBlobReachesTheEndpointFromItsSpoolNotFromBase64() throws Exception {
    byte[] blob = Blobs.random(64 * 1024, 7);
    Operation op = ECHO.operations().get(0);
    Wire wire = request(op, MtomPolicy.ALWAYS, new Holder<>("name"),
        new Holder<>(new DataHandler(new BytesSource(blob))));

    // the blob is a binary part after the envelope; the envelope holds only an xop:Include
    assertThat(wire.bytes.length).isLessThan(blob.length + 2048);
    try (MessageBuffer buffer = wire.read()) {
      assertThat(buffer.envelope().size()).isLessThan(1024);
      Object[] args = op.arguments(BINDER.read(buffer.toMessage(), op.requestWrapper(),
          op.inParts(), a -> new DataHandler(new AttachmentDataSource(a))));
      assertThat(((Holder<?>) args[0]).value).isEqualTo("name");
      DataHandler dh = (DataHandler) ((Holder<?>) args[1]).value;
      Attachment spooled = ((AttachmentDataSource) dh.getDataSource()).attachment();
      assertThat(spooled).isSameAs(buffer.attachments().attachments().iterator().next());
      try (InputStream in = dh.getInputStream()) {
        assertThat(in.readAllBytes()).isEqualTo(blob);
      }
    }
  }

  @Test
  void aReceivedAttachmentGoesBackOutFromItsSpool() throws Exception {
    byte[] blob = Blobs.random(300 * 1024, 3);
    Operation op = ECHO.operations().get(0);
    Wire request = request(op, MtomPolicy.ALWAYS, new Holder<>("n"),
        new Holder<>(new DataHandler(new BytesSource(blob))));
    try (MessageBuffer in = request.read()) {
      Object[] args = op.arguments(BINDER.read(in.toMessage(), op.requestWrapper(),
          op.inParts(), a -> new DataHandler(new AttachmentDataSource(a))));
      Object[] out = op.responseValues(args, null);
      Wire reply = Wire.write(SoapVersion.SOAP_11, MtomPolicy.ALWAYS, List.of(),
          body -> BINDER.writeBody(body, op.responseWrapper(), op.outParts(), out));
      assertThat(reply.text()).contains("testMtomResponse").contains("xop:Include");
      assertThat(reply.bytes.length).isLessThan(blob.length + 2048);
      Object[] echoed = readResponse(op, reply);
      assertThat(read((DataHandler) ((Holder<?>) echoed[1]).value)).isEqualTo(blob);
    }
  }

  @Test
  void withoutMtomTheBlobIsInlineBase64() throws Exception {
    byte[] blob = Blobs.random(5000, 1);
    Operation op = ECHO.operations().get(0);
    Wire wire = request(op, MtomPolicy.NEVER, new Holder<>("x"),
        new Holder<>(new DataHandler(new BytesSource(blob))));
    assertThat(wire.contentType).startsWith("text/xml");
    assertThat(wire.text()).contains(java.util.Base64.getEncoder().encodeToString(blob));
    Object[] args = readRequest(op, wire);
    assertThat(read((DataHandler) ((Holder<?>) args[1]).value)).isEqualTo(blob);
  }

  @Test
  void defaultNamesAreArgNAndReturnUnqualified() throws Exception {
    Operation add = operation(SHAPES, "add");
    Wire wire = request(add, MtomPolicy.NEVER, 2, 3);
    assertThat(wire.text()).contains("<ns2:add xmlns:ns2=\"urn:shapes\"><arg0>2</arg0>"
        + "<arg1>3</arg1></ns2:add>");
    assertThat(readRequest(add, wire)).containsExactly(2, 3);
  }

  @Test
  void headerListAndOutOnlyParts() throws Exception {
    Operation count = operation(SHAPES, "count");
    Object[] args = {List.of("a", "bbb"), "acme", new Holder<String>()};
    Object[] values = count.requestValues(args);
    Wire wire = Wire.write(SoapVersion.SOAP_12, MtomPolicy.NEVER,
        BINDER.headers(count.inParts(), values),
        body -> BINDER.writeBody(body, count.requestWrapper(), count.inParts(), values));
    assertThat(wire.text()).contains("tenant").contains("<words>a</words><words>bbb</words>");
    Object[] got = readRequest(count, wire);
    assertThat(got[0]).isEqualTo(List.of("a", "bbb"));
    assertThat(got[1]).isEqualTo("acme");
    assertThat(((Holder<?>) got[2]).value).isNull();

    Object[] replyArgs = {null, null, new Holder<>("bbb")};
    Object[] out = count.responseValues(replyArgs, 2);
    Wire reply = Wire.write(SoapVersion.SOAP_12, MtomPolicy.NEVER, List.of(),
        body -> BINDER.writeBody(body, count.responseWrapper(), count.outParts(), out));
    Holder<String> longest = new Holder<>();
    Object result = count.applyResponse(readValues(count.responseWrapper(), count.outParts(),
        reply), new Object[] {null, null, longest});
    assertThat(result).isEqualTo(2);
    assertThat(longest.value).isEqualTo("bbb");
  }

  @Test
  void bytesWithAThresholdGoInlineBelowItAndAttachedAbove() throws Exception {
    Operation reverse = operation(SHAPES, "reverse");
    for (int size : new int[] {100, 4096}) {
      byte[] blob = Blobs.random(size, size);
      Wire wire = request(reverse, MtomPolicy.threshold(1024), (Object) blob);
      assertThat(wire.text().contains("xop:Include")).as("%d bytes attached", size)
          .isEqualTo(size >= 1024);
      assertThat((byte[]) readRequest(reverse, wire)[0]).isEqualTo(blob);
    }
  }

  @Test
  void anImageWithItsMimeTypeIsAnAttachment() throws Exception {
    java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(3, 2,
        java.awt.image.BufferedImage.TYPE_INT_RGB);
    image.setRGB(2, 1, 0x123456);
    Operation mirror = SeiModel.of(ImagePort.class).operations().get(0);
    Wire wire = request(mirror, MtomPolicy.ALWAYS, image);
    assertThat(wire.text()).contains("xop:Include").contains("Content-Type: image/png");
    java.awt.image.BufferedImage back = (java.awt.image.BufferedImage) readRequest(mirror,
        wire)[0];
    assertThat(back.getWidth()).isEqualTo(3);
    assertThat(back.getRGB(2, 1) & 0xffffff).isEqualTo(0x123456);
  }

  @Test
  void bareAndRpcOperations() throws Exception {
    Operation greet = operation(SHAPES, "greet");
    assertThat(greet.requestElement()).isEqualTo(new QName("urn:shapes", "person"));
    Wire bare = request(greet, MtomPolicy.NEVER, "Ada");
    assertThat(readRequest(greet, bare)).containsExactly("Ada");

    Operation total = operation(SHAPES, "total");
    assertThat(total.requestElement()).isEqualTo(new QName("urn:shapes", "total"));
    Wire rpc = request(total, MtomPolicy.NEVER, (Object) new long[] {1, 2, 40});
    assertThat(rpc.text()).contains("<values>");
    assertThat((long[]) readRequest(total, rpc)[0]).containsExactly(1, 2, 40);
  }

  @Test
  void aBodyOfAnotherOperationIsRefusedByName() throws Exception {
    Wire wire = request(operation(SHAPES, "add"), MtomPolicy.NEVER, 1, 1);
    assertThatThrownBy(() -> readRequest(operation(SHAPES, "reverse"), wire))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("expected {urn:shapes}reverse").hasMessageContaining("add");
  }

  static Operation operation(SeiModel model, String name) {
    return model.operations().stream().filter(o -> o.name().equals(name)).findFirst()
        .orElseThrow();
  }

  static Wire request(Operation op, MtomPolicy policy, Object... args) throws Exception {
    Object[] values = op.requestValues(args);
    List<HeaderBlock> headers = BINDER.headers(op.inParts(), values);
    return Wire.write(SoapVersion.SOAP_11, policy, headers,
        body -> BINDER.writeBody(body, op.requestWrapper(), op.inParts(), values));
  }

  /** Reads a request into arguments; attachments are copied out before the buffer closes. */
  static Object[] readRequest(Operation op, Wire wire) throws Exception {
    return op.arguments(readValues(op.requestWrapper(), op.inParts(), wire));
  }

  static Object[] readResponse(Operation op, Wire wire) throws Exception {
    Object[] args = new Object[op.method().getParameterCount()];
    op.applyResponse(readValues(op.responseWrapper(), op.outParts(), wire), args);
    return args;
  }

  static Object[] readValues(QName wrapper, List<Part> parts, Wire wire) throws Exception {
    try (MessageBuffer buffer = wire.read()) {
      return BINDER.read(buffer.toMessage(), wrapper, parts,
          a -> new DataHandler(new BytesSource(copy(a))));
    }
  }

  private static byte[] copy(Attachment a) {
    try {
      return a.bytes().toByteArray();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static byte[] read(DataHandler dh) throws Exception {
    try (InputStream in = dh.getInputStream()) {
      return in.readAllBytes();
    }
  }
}
