/*
 * Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0:
 * from Apache CXF's sample jaxws_spring_boot, typed again (see README.md).
 */
package sample.ws;

import jakarta.xml.ws.Endpoint;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import sample.ws.service.HelloPortImpl;

@Configuration
public class WebServiceConfig {

  @Bean
  public Endpoint endpoint() {
    Endpoint endpoint = Endpoint.create(new HelloPortImpl());
    endpoint.publish("/Hello");
    return endpoint;
  }
}
