/**
 * Transport security for Ferry's server, client and broker. Start with {@link
 * dev.ferry.security.TlsSettings} (a listener's or a client's TLS: {@link
 * dev.ferry.security.KeyMaterial}, {@link dev.ferry.security.TrustMaterial}, {@link
 * dev.ferry.security.ClientAuth}) and {@link dev.ferry.security.Authenticator} (who a caller is:
 * HTTP Basic against a {@link dev.ferry.security.PasswordFile}, or its TLS certificate).
 */
package dev.ferry.security;
