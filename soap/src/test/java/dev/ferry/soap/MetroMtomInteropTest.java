package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.xml.ws.api.BindingID;
import com.sun.xml.ws.api.SOAPVersion;
import com.sun.xml.ws.api.WSBinding;
import com.sun.xml.ws.api.message.Messages;
import com.sun.xml.ws.api.message.Packet;
import com.sun.xml.ws.api.pipe.Codec;
import com.sun.xml.ws.api.pipe.ContentType;
import dev.ferry.bytes.ByteString;
import dev.ferry.soap.PeerMessages.Include;
import dev.ferry.soap.PeerMessages.Written;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.soap.AttachmentPart;
import jakarta.xml.soap.MessageFactory;
import jakarta.xml.soap.MimeHeaders;
import jakarta.xml.soap.SOAPConstants;
import jakarta.xml.soap.SOAPElement;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.soap.MTOMFeature;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.NodeList;

/**
 * Metro (the JAX-WS RI, with SAAJ RI) as the peer: MTOM packages written by Metro's MTOM codec
 * from a JAXB bean, and SwA packages written by SAAJ, read by Ferry; packages written by Ferry's
 * XopWriter read by SAAJ and by Metro's MTOM codec.
 */
class MetroMtomInteropTest {
  static final byte[] BIG = PeerMessages.everyByteValue();
  static final SoapCodec SOAP = SoapCodec.create();
  static final String XOP_NS = "http://www.w3.org/2004/08/xop/include";

  /** The testMtom request as JAXB sees it. */
  @XmlRootElement(name = "testMtom", namespace = PeerMessages.TYPES_NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  public static class TestMtom {
    @XmlElement(namespace = PeerMessages.TYPES_NS)
    String name;
    @XmlElement(namespace = PeerMessages.TYPES_NS)
    byte[] attachinfo;
  }

  static BindingID binding(SoapVersion v) {
    return v == SoapVersion.SOAP_11 ? BindingID.SOAP11_HTTP_MTOM : BindingID.SOAP12_HTTP_MTOM;
  }

  static SOAPVersion metro(SoapVersion v) {
    return v == SoapVersion.SOAP_11 ? SOAPVersion.SOAP_11 : SOAPVersion.SOAP_12;
  }

  static Codec mtomCodec(SoapVersion v) {
    WSBinding b = binding(v).createBinding(new MTOMFeature(true, 0));
    return binding(v).createEncoder(b);
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void ferryReadsWhatMetroMtomCodecWrites(SoapVersion version) throws Exception {
    for (byte[] blob : List.of(BIG, new byte[0])) {
      TestMtom bean = new TestMtom();
      bean.name = "metro";
      bean.attachinfo = blob;
      JAXBContext ctx = JAXBContext.newInstance(TestMtom.class);
      Packet p = new Packet(Messages.create(ctx, bean, metro(version)));
      p.setMtomFeature(new MTOMFeature(true, 0));
      p.setState(Packet.State.ClientRequest);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ContentType ct = mtomCodec(version).encode(p, out);
      assertThat(ct.getContentType()).startsWith("multipart/related")
          .contains("application/xop+xml");

      try (MessageBuffer buf = SOAP.read(new ByteArrayInputStream(out.toByteArray()),
          ct.getContentType())) {
        assertThat(buf.version()).isEqualTo(version);
        assertThat(buf.attachments().isXop()).isTrue();
        Message m = buf.toMessage();
        assertThat(PeerMessages.bodyText(m, "name")).isEqualTo("metro");
        List<Include> includes = PeerMessages.includes(m);
        if (blob.length == 0 && includes.isEmpty()) {
          // Metro leaves an empty byte[] inline: an empty element, no attachment
          assertThat(PeerMessages.bodyText(m, "attachinfo")).isEmpty();
          continue;
        }
        assertThat(includes).hasSize(1);
        assertThat(includes.get(0).element()).isEqualTo("attachinfo");
        assertThat(includes.get(0).bytes()).isEqualTo(ByteString.of(blob));
        assertThat(buf.attachments().attachments()).hasSize(1);
        assertThat(buf.attachments().attachments().iterator().next().contentId())
            .isEqualTo(includes.get(0).contentId());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void ferryReadsWhatSaajWrites(SoapVersion version) throws Exception {
    SOAPMessage sm = MessageFactory.newInstance(version == SoapVersion.SOAP_11
        ? SOAPConstants.SOAP_1_1_PROTOCOL : SOAPConstants.SOAP_1_2_PROTOCOL).createMessage();
    SOAPElement op = sm.getSOAPBody().addChildElement("testMtom", "t", PeerMessages.TYPES_NS);
    op.addChildElement("name", "t").addTextNode("saaj");
    String[] ids = {"big@saaj", "empty@saaj"};
    byte[][] blobs = {BIG, new byte[0]};
    for (int i = 0; i < 2; i++) {
      op.addChildElement(i == 0 ? "attachinfo" : "empty", "t")
          .addAttribute(new javax.xml.namespace.QName("href"), "cid:" + ids[i]);
      AttachmentPart a = sm.createAttachmentPart();
      a.setRawContentBytes(blobs[i], 0, blobs[i].length, "application/octet-stream");
      a.setContentId("<" + ids[i] + ">");
      sm.addAttachmentPart(a);
    }
    sm.saveChanges();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    sm.writeTo(out);
    String contentType = String.join(", ", sm.getMimeHeaders().getHeader("Content-Type"));

    try (MessageBuffer buf = SOAP.read(new ByteArrayInputStream(out.toByteArray()),
        contentType)) {
      assertThat(buf.version()).isEqualTo(version);
      assertThat(buf.attachments().isMultipart()).isTrue();
      assertThat(buf.body().utf8()).contains("href=\"cid:big@saaj\"");
      assertThat(PeerMessages.bodyText(buf.toMessage(), "name")).isEqualTo("saaj");
      assertThat(buf.attachments().attachment("big@saaj").bytes().toByteArray())
          .isEqualTo(BIG);
      assertThat(buf.attachments().attachment("empty@saaj").size()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void saajReadsWhatFerryWrites(SoapVersion version) throws Exception {
    for (byte[] blob : List.of(BIG, new byte[0])) {
      Written w = PeerMessages.ferryTestMtom(version, "ferry", blob);
      MimeHeaders headers = new MimeHeaders();
      headers.addHeader("Content-Type", w.contentType());
      SOAPMessage sm = MessageFactory.newInstance(version == SoapVersion.SOAP_11
          ? SOAPConstants.SOAP_1_1_PROTOCOL : SOAPConstants.SOAP_1_2_PROTOCOL)
          .createMessage(headers, new ByteArrayInputStream(w.bytes()));
      assertThat(sm.getSOAPBody().getElementsByTagNameNS(PeerMessages.TYPES_NS, "name")
          .item(0).getTextContent()).isEqualTo("ferry");
      NodeList inc = sm.getSOAPBody().getElementsByTagNameNS(XOP_NS, "Include");
      assertThat(inc.getLength()).isEqualTo(1);
      AttachmentPart a = sm.getAttachment((SOAPElement) inc.item(0));
      assertThat(a).as("SAAJ resolves the href").isNotNull();
      // not getRawContentBytes(): SAAJ 3.0.4 throws NegativeArraySizeException for any
      // zero-length attachment, its own included
      try (java.io.InputStream in = a.getRawContent()) {
        assertThat(in.readAllBytes()).isEqualTo(blob);
      }
      Iterator<AttachmentPart> all = sm.getAttachments();
      assertThat(all.next().getContentId()).isEqualTo(a.getContentId());
      assertThat(all.hasNext()).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(SoapVersion.class)
  void metroMtomCodecReadsWhatFerryWrites(SoapVersion version) throws Exception {
    for (byte[] blob : List.of(BIG, new byte[0])) {
      Written w = PeerMessages.ferryTestMtom(version, "ferry", blob);
      Packet p = new Packet();
      mtomCodec(version).decode(new ByteArrayInputStream(w.bytes()), w.contentType(), p);
      com.sun.xml.ws.api.message.Message m = p.getMessage();
      XMLStreamReader r = m.readPayload();
      // Metro's XOP reader resolves includes in next(), not in getElementText()
      String name = null;
      String base64 = null;
      String element = null;
      StringBuilder text = new StringBuilder();
      while (r.hasNext()) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          element = r.getLocalName();
          text.setLength(0);
        } else if (e == XMLStreamConstants.CHARACTERS) {
          text.append(r.getText());
        } else if (e == XMLStreamConstants.END_ELEMENT && "name".equals(r.getLocalName())) {
          name = text.toString();
        } else if (e == XMLStreamConstants.END_ELEMENT
            && "attachinfo".equals(r.getLocalName())) {
          base64 = text.toString();
        }
      }
      assertThat(name).isEqualTo("ferry");
      assertThat(base64).as("Metro resolves the xop:Include").isNotNull();
      assertThat(Base64.getMimeDecoder().decode(base64)).isEqualTo(blob);
    }
  }
}
