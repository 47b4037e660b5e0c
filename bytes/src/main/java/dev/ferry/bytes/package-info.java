/**
 * Bytes that are copied as few times as the job allows.
 *
 * <p>Start with {@link dev.ferry.bytes.ByteString}: an immutable byte string whose slices share
 * the array they come from. {@link dev.ferry.bytes.ByteStringBuilder} makes one, {@link
 * dev.ferry.bytes.ByteSequenceReader} reads one with a position, {@link dev.ferry.bytes.Spool}
 * holds a stream's bytes in memory up to a threshold and in a private temp file beyond.
 * Every decoder in Ferry reports bad input as a {@link dev.ferry.bytes.DecodeException} that says
 * what, where (a byte offset) and, for a hit limit, which limit.
 */
package dev.ferry.bytes;
