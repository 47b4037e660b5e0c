/**
 * Transport security: TLS keys and trust, reloaded when their files change, and the
 * authentication of HTTP callers. The JDK only.
 */
module dev.ferry.security {
  exports dev.ferry.security;
}
