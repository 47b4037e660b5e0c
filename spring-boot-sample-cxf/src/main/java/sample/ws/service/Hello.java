/*
 * Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0:
 * from Apache CXF's sample jaxws_spring_boot, typed again (see README.md).
 */
package sample.ws.service;

import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.ResponseWrapper;

/** The sample's service interface; its wrapper classes are not in the sample. */
@WebService(targetNamespace = "http://service.ws.sample/", name = "Hello")
public interface Hello {

  @WebResult(name = "return", targetNamespace = "")
  @RequestWrapper(localName = "sayHello", targetNamespace = "http://service.ws.sample/",
      className = "sample.ws.service.SayHello")
  @WebMethod(action = "urn:SayHello")
  @ResponseWrapper(localName = "sayHelloResponse", targetNamespace = "http://service.ws.sample/",
      className = "sample.ws.service.SayHelloResponse")
  String sayHello(@WebParam(name = "myname", targetNamespace = "") String myname);
}
