/**
 * The SOAP client: soap and xop over one HTTP client (Netty), nothing else.
 *
 * <p>Start with {@link dev.ferry.client.SoapClient}: {@code call} sends a {@link
 * dev.ferry.soap.Payload} and returns a {@link dev.ferry.client.SoapResponse} whose root part was
 * read and whose attachments stream from the connection. A reply that is not SOAP is a {@link
 * dev.ferry.client.SoapHttpException}.
 */
package dev.ferry.client;
