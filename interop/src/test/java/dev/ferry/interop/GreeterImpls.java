package dev.ferry.interop;

import jakarta.jws.WebService;
import jakarta.xml.ws.soap.Addressing;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * CXF's WS-Addressing greeter, implemented on CXF's and Metro's generated interfaces with
 * addressing required ({@code @Addressing(required = true)}, as each runtime reads it): greets,
 * takes one-way greetings (kept, to be awaited), and answers pingMe with its declared fault.
 */
final class GreeterImpls {
  static final String NS = "http://apache.org/hello_world_soap_http";
  static final short MINOR = 2;
  static final short MAJOR = 1;

  private GreeterImpls() {}

  @Addressing(required = true)
  @WebService(serviceName = "SOAPService", portName = "SoapPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.cxfaddr.Greeter")
  public static class Cxf implements dev.ferry.interop.cxfaddr.Greeter {
    final BlockingQueue<String> oneWay = new LinkedBlockingQueue<>();

    @Override
    public void pingMe() throws dev.ferry.interop.cxfaddr.PingMeFault {
      var detail = new dev.ferry.interop.cxfaddr.FaultDetail();
      detail.setMinor(MINOR);
      detail.setMajor(MAJOR);
      throw new dev.ferry.interop.cxfaddr.PingMeFault("pinged", detail);
    }

    @Override
    public String greetMe(String requestType) {
      return "Hello " + requestType;
    }

    @Override
    public void greetMeOneWay(String requestType) {
      oneWay.add(requestType);
    }

    @Override
    public String sayHi() {
      return "Bonjour";
    }
  }

  @Addressing(required = true)
  @WebService(serviceName = "SOAPService", portName = "SoapPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.metroaddr.Greeter")
  public static class Metro implements dev.ferry.interop.metroaddr.Greeter {
    final BlockingQueue<String> oneWay = new LinkedBlockingQueue<>();

    @Override
    public void pingMe() throws dev.ferry.interop.metroaddr.PingMeFault {
      var detail = new dev.ferry.interop.metroaddr.FaultDetail();
      detail.setMinor(MINOR);
      detail.setMajor(MAJOR);
      throw new dev.ferry.interop.metroaddr.PingMeFault("pinged", detail);
    }

    @Override
    public String greetMe(String requestType) {
      return "Hello " + requestType;
    }

    @Override
    public void greetMeOneWay(String requestType) {
      oneWay.add(requestType);
    }

    @Override
    public String sayHi() {
      return "Bonjour";
    }
  }
}
