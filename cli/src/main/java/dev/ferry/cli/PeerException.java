package dev.ferry.cli;

import java.io.IOException;

/**
 * The peer answered, but not with what was asked: a SOAP fault, a reply that is not SOAP, or an
 * echo that lost bytes. Its own exit code (5) tells a script that the network worked and the
 * service did not.
 */
final class PeerException extends IOException {
  private static final long serialVersionUID = 1L;

  PeerException(String message) {
    super(message);
  }

  PeerException(String message, Throwable cause) {
    super(message, cause);
  }
}
