/*
 * Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0:
 * from Apache CXF's sample jaxws_spring_boot, typed again (see README.md).
 */
package sample.ws;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SampleWsApplication {
  public static void main(String[] args) throws Exception {
    SpringApplication.run(SampleWsApplication.class, args);
  }
}
