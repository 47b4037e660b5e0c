/**
 * Deploys JAX-WS endpoints in a Servlet 6 container on Ferry's runtime: the endpoints a web
 * application's {@code WEB-INF/sun-jaxws.xml} names, or else the {@code @WebService} and
 * {@code @WebServiceProvider} classes the container finds in it.
 */
module dev.ferry.jaxws.servlet {
  requires dev.ferry.jaxws;
  requires java.xml;

  exports dev.ferry.jaxws.servlet;

  provides jakarta.servlet.ServletContainerInitializer
      with dev.ferry.jaxws.servlet.FerryServletInitializer;
}
