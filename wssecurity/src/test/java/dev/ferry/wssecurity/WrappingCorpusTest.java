package dev.ferry.wssecurity;

import static dev.ferry.wssecurity.WsSecurityTest.CODEC;
import static dev.ferry.wssecurity.WsSecurityTest.order;
import static dev.ferry.wssecurity.WsSecurityTest.wire;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.SoapException;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.WrappingCorpus;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wrapping corpus against the guard itself: for SOAP 1.1 and 1.2, under a policy that signs
 * the Body and Timestamp and one that also signs wsa:To and wsa:Action, every variant is refused
 * or opens to a message in which no accessor reads the attacker's content.
 */
class WrappingCorpusTest {
  static final WsSecurityPolicy BODY = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().build();
  static final WsSecurityPolicy ADDRESSED = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp()
      .signHeader(Addressing.TO).signHeader(Addressing.ACTION).build();

  @BeforeAll
  static void keys() {
    WsSecurityTest.keys();
  }

  static Stream<Arguments> cases() throws IOException {
    WsSecurityTest.keys();
    List<Arguments> cases = new ArrayList<>();
    for (SoapVersion v : SoapVersion.values()) {
      for (WsSecurityPolicy p : List.of(BODY, ADDRESSED)) {
        String signed = signed(v, p);
        String label = v + (p == BODY ? " Body+Timestamp" : " +wsa:To,Action");
        cases.add(Arguments.of(label + ": control", p, WrappingCorpus.control(signed), true));
        for (WrappingCorpus.Variant variant : WrappingCorpus.of(signed)) {
          cases.add(Arguments.of(label + ": " + variant.name(), p, variant.envelope(), false));
        }
      }
    }
    return cases.stream();
  }

  /** A request Ferry signed, addressed (wsa:To and wsa:Action) as a client would. */
  static String signed(SoapVersion v, WsSecurityPolicy p) throws IOException {
    Message m = wire(order(v, MtomPolicy.NEVER, null));
    m.addressing().setTo("http://shop.example/orders").setAction("urn:shop:order");
    WsSecurityTest.out(p).protect(m);
    return m.toByteString().utf8();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void refusedOrOnlySignedContentIsRead(String name, WsSecurityPolicy policy, String envelope,
      boolean control) throws IOException {
    MessageGuard.Opened opened;
    try {
      Message m = CODEC.parse(ByteString.encodeUtf8(envelope)).toMessage();
      opened = WsSecurityTest.in(policy).open(m);
    } catch (FaultException e) {
      assertThat(control).as("the unchanged message is refused: " + e.getCause()).isFalse();
      assertThat(e.fault().reason()).doesNotContain("Body", "Id", "signed", "wsa:", "Wrapper");
      return;
    } catch (SoapException e) {
      assertThat(control).isFalse();
      return; // not a SOAP envelope of one Body: refused by the codec
    }
    assertThat(opened.bodyProtected()).isTrue();
    // unsigned headers are the sender's to change: only those the policy signs are checked
    assertThat(read(opened.message(), !policy.signedHeaders().isEmpty()))
        .doesNotContain(WrappingCorpus.EVIL);
  }

  /**
   * Everything an application can read of a message's Body (and, if {@code addressing}, of its
   * WS-Addressing headers), as text.
   */
  static String read(Message m, boolean addressing) throws IOException {
    StringBuilder seen = new StringBuilder();
    seen.append(m.body().utf8()).append(m.buffer().bodyElement());
    XMLStreamReader r = m.bodyReader();
    try {
      for (int depth = 0; ; ) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          depth++;
        } else if (e == XMLStreamConstants.END_ELEMENT && depth-- == 0) {
          break;
        } else if (e == XMLStreamConstants.CHARACTERS) {
          seen.append(r.getText());
        }
      }
    } catch (javax.xml.stream.XMLStreamException e) {
      throw new IOException(e);
    }
    seen.append(m.isFault()).append(Fault.read(m));
    if (!addressing) {
      return seen.toString();
    }
    Addressing a = m.addressing();
    seen.append(a.to()).append(a.action());
    for (HeaderBlock b : m.headers()) {
      if (b.name().getNamespaceURI().equals(Addressing.NS)) {
        seen.append(b.text());
      }
    }
    return seen.toString();
  }
}
