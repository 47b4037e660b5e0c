/**
 * What Ferry's spans say: {@link dev.ferry.tracing.SoapAttributes} names the attributes of the
 * server's, the client's and the broker's spans. The spans are made through the OpenTelemetry
 * API; with no SDK (and no Java agent) they cost next to nothing and record nothing.
 */
package dev.ferry.tracing;
