/*
 * Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0:
 * from Apache CXF's sample jaxws_spring_boot, typed again (see README.md).
 */
package sample.ws.service;

import java.util.logging.Logger;

@jakarta.jws.WebService(serviceName = "HelloService", portName = "HelloPort",
    targetNamespace = "http://service.ws.sample/",
    endpointInterface = "sample.ws.service.Hello")
public class HelloPortImpl implements Hello {

  private static final Logger LOG = Logger.getLogger(HelloPortImpl.class.getName());

  @Override
  public String sayHello(String myname) {
    LOG.info("Executing operation sayHello" + myname);
    return "Hello, Welcome to CXF Spring boot " + myname + "!!!";
  }
}
