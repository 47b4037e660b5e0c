/**
 * The copy-and-forward SOAP broker.
 *
 * <p>Start with {@link dev.ferry.broker.Broker}: {@link dev.ferry.broker.Routes} say where each
 * request goes (by path and action); the broker rewrites wsa:To, adds a trace header and streams
 * the message and its attachments on, and the reply back. {@link dev.ferry.broker.BrokerOptions}
 * holds how much it holds in memory and what callers may take.
 */
package dev.ferry.broker;
