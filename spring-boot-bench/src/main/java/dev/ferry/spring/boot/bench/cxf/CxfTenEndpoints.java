package dev.ferry.spring.boot.bench.cxf;

import dev.ferry.spring.boot.bench.TenEndpoints;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.soap.MTOMFeature;
import org.apache.cxf.Bus;
import org.apache.cxf.jaxws.EndpointImpl;
import org.apache.cxf.metrics.MetricsFeature;
import org.apache.cxf.metrics.MetricsProvider;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The bench application on CXF's starter: endpoints made as CXF's sample makes them, with
 * CXF's metrics feature (Ferry's starter meters its endpoints when Actuator is present).
 */
@SpringBootApplication
public class CxfTenEndpoints {
  public static void main(String[] args) {
    TenEndpoints.run(CxfTenEndpoints.class, (context, implementor, mtom) -> new EndpointImpl(
        context.getBean(Bus.class), implementor, null, null, new WebServiceFeature[] {
            new MetricsFeature(context.getBean(MetricsProvider.class)), new MTOMFeature(mtom)}),
        args);
  }
}
