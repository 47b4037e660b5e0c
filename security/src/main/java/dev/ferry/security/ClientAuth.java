package dev.ferry.security;

/** Whether a TLS listener asks its callers for a certificate. */
public enum ClientAuth {
  /** No certificate is asked for. */
  NONE,
  /** A certificate is asked for; a caller without one is let in (to authenticate otherwise). */
  OPTIONAL,
  /** A caller without a certificate that the trust accepts fails the handshake. */
  REQUIRED
}
