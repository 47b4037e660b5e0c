/**
 * The SOAP server: endpoints over HTTP on an embedded Jetty, or in any Servlet 6 container.
 *
 * <p>Start with {@link dev.ferry.server.SoapServer}: give it a path and a {@link
 * dev.ferry.server.Dispatcher}, which picks the {@link dev.ferry.server.Endpoint} for a request
 * (by wsa:Action, SOAPAction or the Body's element). An endpoint turns a {@link
 * dev.ferry.soap.Message} into a reply {@link dev.ferry.soap.Payload}, or throws a {@link
 * dev.ferry.server.SoapFaultException}. {@link dev.ferry.server.SoapServlet} is the same protocol
 * for another container; {@link dev.ferry.server.ServerOptions} bounds what callers take.
 */
package dev.ferry.server;
