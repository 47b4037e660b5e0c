/**
 * Masking of secrets in log lines, and message logging for support: what the server and the
 * client (and the broker) exchange, masked and bounded, attachments named but never read.
 */
module dev.ferry.logging {
  requires transitive dev.ferry.mime;

  exports dev.ferry.logging;
  exports dev.ferry.logging.internal to dev.ferry.server, dev.ferry.client, dev.ferry.broker;
}
