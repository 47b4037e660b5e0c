/**
 * A Jakarta XML Web Services 4 runtime on Ferry's soap, xop, server and client, binding with
 * JAXB; and a typed API without annotations on the same binding.
 */
module dev.ferry.jaxws {
  requires transitive dev.ferry.server;
  requires transitive dev.ferry.client;
  requires transitive jakarta.xml.ws;
  requires transitive jakarta.xml.bind;
  requires transitive jakarta.activation;
  requires jakarta.xml.soap;
  requires jakarta.annotation;
  requires org.glassfish.jaxb.runtime;
  requires org.glassfish.jaxb.core;
  requires org.jvnet.staxex;
  requires java.logging;

  exports dev.ferry.jaxws;
  exports dev.ferry.jaxws.internal to dev.ferry.jaxws.servlet, dev.ferry.spring.boot.jaxws;

  provides jakarta.xml.ws.spi.Provider with dev.ferry.jaxws.FerryProvider;
}
