/**
 * A Jakarta XML Web Services 4 runtime on Ferry's server and client.
 *
 * <p>With this module on the class path, {@code jakarta.xml.ws.Endpoint.publish} and {@code
 * Service.create(...).getPort(...)} run on Ferry ({@link dev.ferry.jaxws.FerryProvider});
 * {@link dev.ferry.jaxws.TypedOperation} binds a request class and a response class without
 * annotations on the same JAXB binding.
 */
package dev.ferry.jaxws;
