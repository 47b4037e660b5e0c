package dev.ferry.interop;

import javax.xml.namespace.QName;

/** The names of Ferry's echo service, as its WSDL ({@code testMtom.wsdl}) spells them. */
final class EchoContract {
  static final String SERVICE_NS = "http://cxf.apache.org/mime";
  static final String TYPES_NS = "http://cxf.apache.org/mime/types";
  static final String SOAP_ACTION = "";
  static final QName SERVICE = new QName(SERVICE_NS, "TestMtomService");
  static final QName PORT = new QName(SERVICE_NS, "TestMtomPort");
  /** The WSDL as the ferry-sample jar ships it, on the test class path. */
  static final String WSDL_RESOURCE = "dev/ferry/sample/testMtom.wsdl";

  private EchoContract() {}
}
