package dev.ferry.bench.http;

import dev.ferry.interop.EchoPortImpl;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.jaxws.FerryProvider;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * Ferry's JAX-WS runtime on both sides of the typed testMtom echo: the interop tests' endpoint
 * implementation (the one CXF and Metro serve too) published with Ferry's provider, and a port
 * of the same interface made by it. Ferry's provider is named, as CXF's and Metro's are on the
 * class path too.
 */
final class FerryJaxWsEcho extends PortEcho {
  static final QName SERVICE = new QName("http://cxf.apache.org/mime", "TestMtomService");
  static final QName PORT = new QName("http://cxf.apache.org/mime", "TestMtomPort");
  /** 12 MiB as base64 is 16 MiB of envelope, the default root limit: raised for the bench. */
  static final SoapCodec CODEC = SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
      .maxRootBytes(64 << 20).build()).build(), XopCodec.builder());

  private final Endpoint endpoint;
  private final TestMtomPort port;

  FerryJaxWsEcho(boolean mtom) {
    AccessLog.quiet();
    FerryProvider ferry = new FerryProvider();
    endpoint = ferry.createEndpoint(SOAPBinding.SOAP11HTTP_BINDING, new EchoPortImpl(),
        new MTOMFeature(mtom));
    endpoint.setProperties(Map.of(FerryProvider.CODEC_PROPERTY, CODEC));
    String address = "http://127.0.0.1:" + Ports.free() + "/echo";
    endpoint.publish(address);
    var service = ferry.createServiceDelegate(null, SERVICE, Service.class);
    service.addPort(PORT, SOAPBinding.SOAP11HTTP_BINDING, address);
    port = service.getPort(PORT, TestMtomPort.class, new MTOMFeature(mtom));
    ((BindingProvider) port).getRequestContext().put(FerryProvider.CODEC_PROPERTY, CODEC);
  }

  @Override
  TestMtomPort port() {
    return port;
  }

  @Override
  public void close() {
    endpoint.stop();
  }
}
