package dev.ferry.jaxws.servlet.internal;

/**
 * A web application's endpoints cannot be deployed: the message names what (the descriptor's
 * line, the endpoint, the class, the WSDL) and why. Nothing of the application is deployed.
 */
public final class DeploymentException extends Exception {
  private static final long serialVersionUID = 1L;

  public DeploymentException(String message) {
    super(message);
  }

  public DeploymentException(String message, Throwable cause) {
    super(message, cause);
  }
}
