/**
 * JAX-WS endpoints in a servlet container: put this module's jar in a web application's
 * {@code WEB-INF/lib} and {@link dev.ferry.jaxws.servlet.FerryServletInitializer} deploys them
 * when the container starts the application.
 */
package dev.ferry.jaxws.servlet;
