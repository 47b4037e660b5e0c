/** The SOAP client: soap and xop over one HTTP client, nothing else. */
module dev.ferry.client {
  requires transitive dev.ferry.soap;
  requires java.net.http;

  exports dev.ferry.client;
  exports dev.ferry.client.internal to dev.ferry.broker;
}
