/**
 * Streaming MIME multipart (RFC 2046) with a boundary search that runs near raw-copy speed.
 *
 * <p>Start with {@link dev.ferry.mime.MultipartReader} to read a message part by part from an
 * {@code InputStream}, and {@link dev.ferry.mime.MultipartWriter} to write one. Underneath the
 * reader is {@link dev.ferry.mime.MultipartParser}, a push parser fed chunks as they arrive, for
 * code that owns its I/O. {@link dev.ferry.mime.MimeLimits} bounds every part of a message;
 * {@link dev.ferry.mime.MediaType} and {@link dev.ferry.mime.MimeHeaders} are the headers.
 */
package dev.ferry.mime;
