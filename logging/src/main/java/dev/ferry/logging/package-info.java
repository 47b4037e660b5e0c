/**
 * {@link dev.ferry.logging.LogMasking} masks passwords, tokens and card numbers in log lines;
 * {@link dev.ferry.logging.MessageLog} configures message logging for support on the server
 * ({@code ServerOptions.messageLog}), the client ({@code SoapClient.Builder.messageLog}) and the
 * broker ({@code Broker.Builder.messageLog}).
 */
package dev.ferry.logging;
