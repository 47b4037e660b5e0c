package dev.ferry.spring.boot.bench.ferry;

import dev.ferry.spring.boot.bench.TenEndpoints;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.soap.MTOMFeature;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The bench application on Ferry's starter. */
@SpringBootApplication
public class FerryTenEndpoints {
  public static void main(String[] args) {
    TenEndpoints.run(FerryTenEndpoints.class,
        (context, implementor, mtom) -> Endpoint.create(implementor, new MTOMFeature(mtom)),
        args);
  }
}
