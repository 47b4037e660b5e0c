package dev.ferry.ldap.server;

/**
 * A durable store failed: full (its size limit reached), out of readers, or an error of the
 * storage engine. An update that meets it is not applied; the client gets a result naming the
 * cause, never the engine's classes.
 */
final class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** True if the store refused the change (full, a key too long), false if it failed. */
  final boolean refused;

  StoreException(String message, boolean refused, Throwable cause) {
    super(message, cause);
    this.refused = refused;
  }
}
