/**
 * XOP and MTOM (W3C XOP 1.0): XML with its binary content carried as MIME parts.
 *
 * <p>Start with {@link dev.ferry.xop.XopCodec}: {@code read} gives an {@link
 * dev.ferry.xop.XopPackage} (the root read at once, attachments as they are asked for), whose
 * {@link dev.ferry.xop.XopReader} is a StAX reader in which each {@code xop:Include} reads as
 * base64 text, or as the raw {@link dev.ferry.xop.Attachment}; {@code newWriter} gives an {@link
 * dev.ferry.xop.XopWriter} that sends binary content inline or attached as an {@link
 * dev.ferry.xop.MtomPolicy} says. {@link dev.ferry.xop.XmlLimits} and {@link
 * dev.ferry.xop.XopLimits} bound what is read; DTDs and external entities are always refused.
 */
package dev.ferry.xop;
