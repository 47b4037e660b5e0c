/**
 * SOAP 1.1 and 1.2 messages whose copy never re-parses the body.
 *
 * <p>Start with {@link dev.ferry.soap.SoapCodec}: {@code read} indexes a received message into a
 * {@link dev.ferry.soap.MessageBuffer} (header blocks as slices of the envelope's bytes, the
 * Body read once and kept as a slice); {@link dev.ferry.soap.Message} is a header overlay on it
 * that adds, removes and replaces blocks without touching the bytes, and goes on the wire as a
 * {@link dev.ferry.soap.Payload}. {@code payload} composes a new message. {@link
 * dev.ferry.soap.Fault}, {@link dev.ferry.soap.Addressing} and {@link dev.ferry.soap.SoapBinding}
 * (what the HTTP bindings say) complete it.
 */
package dev.ferry.soap;
