package dev.ferry.client;

import java.io.IOException;
import java.net.URI;

/** An HTTP reply that is not SOAP (a 404 page, a proxy's 502): its status and the start of it. */
public final class SoapHttpException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public SoapHttpException(URI uri, int status, String contentType, String bodyStart) {
    super("HTTP " + status + " from " + uri + " with " + (contentType == null
        ? "no Content-Type" : "Content-Type " + contentType) + ", not a SOAP reply"
        + (bodyStart.isBlank() ? "" : ": " + bodyStart.strip()));
    this.status = status;
  }

  public int status() {
    return status;
  }
}
