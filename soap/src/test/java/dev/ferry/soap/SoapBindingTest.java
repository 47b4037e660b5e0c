package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.mime.MediaType;
import org.junit.jupiter.api.Test;

/** The SOAP version and action a request's Content-Type announces. */
class SoapBindingTest {
  private static final String XOP = "multipart/related; boundary=b; type=\"application/xop+xml\"";

  @Test
  void plainTypesNameTheirVersion() throws Exception {
    assertThat(SoapBinding.version(MediaType.parse("text/xml; charset=UTF-8")))
        .isEqualTo(SoapVersion.SOAP_11);
    assertThat(SoapBinding.version(MediaType.parse("Application/SOAP+XML; action=\"urn:a\"")))
        .isEqualTo(SoapVersion.SOAP_12);
    assertThat(SoapBinding.version(MediaType.parse("application/json"))).isNull();
  }

  @Test
  void xopStartInfoNamesTheVersionBareOrWithParameters() throws Exception {
    assertThat(SoapBinding.version(MediaType.parse(XOP + "; start-info=\"text/xml\"")))
        .isEqualTo(SoapVersion.SOAP_11);
    assertThat(SoapBinding.version(MediaType.parse(XOP + "; start-info=\"Text/XML\"")))
        .isEqualTo(SoapVersion.SOAP_11);
    assertThat(SoapBinding.version(MediaType.parse(
        XOP + "; start-info=\"application/soap+xml; action=\\\"urn:a\\\"\"")))
        .isEqualTo(SoapVersion.SOAP_12);
    assertThat(SoapBinding.version(MediaType.parse(XOP + "; start-info=\" text/xml \"")))
        .isEqualTo(SoapVersion.SOAP_11);
  }

  @Test
  void aStartInfoThatIsNoSoapTypeNamesNoVersion() throws Exception {
    assertThat(SoapBinding.version(MediaType.parse(XOP + "; start-info=\"text/plain\"")))
        .isNull();
    assertThat(SoapBinding.version(MediaType.parse(XOP + "; start-info=\"text\""))).isNull();
    assertThat(SoapBinding.version(MediaType.parse(XOP))).isEqualTo(SoapVersion.SOAP_11);
  }

  @Test
  void theActionComesFromTheHeaderElseTheStartInfo() throws Exception {
    MediaType withAction = MediaType.parse(
        XOP + "; start-info=\"application/soap+xml; action=\\\"urn:a\\\"\"");
    assertThat(SoapBinding.soapAction(null, withAction)).isEqualTo("urn:a");
    assertThat(SoapBinding.soapAction("\"urn:h\"", withAction)).isEqualTo("urn:h");
    assertThat(SoapBinding.soapAction(null,
        MediaType.parse(XOP + "; start-info=\"application/soap+xml\""))).isNull();
    assertThat(SoapBinding.soapAction(null,
        MediaType.parse("application/soap+xml; action=\"urn:b\""))).isEqualTo("urn:b");
  }

  @Test
  void theVersionsCarryTheirParsedMediaType() {
    for (SoapVersion v : SoapVersion.values()) {
      assertThat(v.type().baseType()).isEqualTo(v.mediaType());
    }
  }
}
