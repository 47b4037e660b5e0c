/**
 * WS-Security on Apache WSS4J's streaming implementation. Start with {@link
 * dev.ferry.wssecurity.WsSecurity}: a {@code MessageGuard} made of a {@link
 * dev.ferry.wssecurity.WsSecurityPolicy} for what it receives, one for what it sends, and the
 * {@link dev.ferry.wssecurity.WsSecurityCredentials} both use.
 */
package dev.ferry.wssecurity;
