package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jws.WebService;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A fault's reason says what went wrong in plain words and never names the runtime's classes
 * (JAXB's {@code com.sun.istack} exceptions, a header block's Java {@code toString}, an
 * exception's class): those go to the log.
 */
class FaultTextTest {
  private static final String NS = "urn:texts";
  private static RawEndpoint texts;

  @WebService(targetNamespace = NS, serviceName = "Texts")
  public static class Texts {
    public int twice(int n) {
      return 2 * n;
    }

    public String fail(String what) {
      throw new IllegalStateException(what.isEmpty() ? null : what);
    }
  }

  @BeforeAll
  static void publish() {
    texts = new RawEndpoint("/texts", new Texts());
  }

  @AfterAll
  static void stop() {
    texts.close();
  }

  @Test
  void aValueThatDoesNotBindIsNamedWithoutJaxbsClasses() throws Exception {
    String reply = post("", "<t:twice xmlns:t=\"" + NS + "\"><arg0>twelve</arg0></t:twice>");
    assertThat(reason(reply)).startsWith("cannot read the twice request: cannot read arg0 as int")
        .doesNotContain("com.sun").doesNotContain("Exception").doesNotContain("jakarta.");
  }

  @Test
  void aHeaderNobodyUnderstandsIsNamedByItsName() throws Exception {
    String reply = post("<s:Header><x:secret xmlns:x=\"urn:x\" s:mustUnderstand=\"1\">1"
        + "</x:secret></s:Header>", "<t:twice xmlns:t=\"" + NS + "\"><arg0>2</arg0></t:twice>");
    assertThat(reply).contains("MustUnderstand");
    assertThat(reason(reply)).isEqualTo("header blocks not understood: {urn:x}secret");
  }

  @Test
  void anUndeclaredExceptionGivesItsMessageOrPlainWordsNeverItsClass() throws Exception {
    String body = "<t:fail xmlns:t=\"" + NS + "\"><arg0>%s</arg0></t:fail>";
    assertThat(reason(post("", body.formatted("the disk is full"))))
        .isEqualTo("the disk is full");
    assertThat(reason(post("", body.formatted("")))).isEqualTo("the operation failed");
  }

  private static String post(String header, String body) throws Exception {
    HttpResponse<String> r = texts.post(header, body);
    assertThat(r.statusCode()).isEqualTo(500);
    return r.body();
  }

  private static String reason(String fault) {
    int start = fault.indexOf("<faultstring>") + "<faultstring>".length();
    return fault.substring(start, fault.indexOf("</faultstring>", start));
  }
}
