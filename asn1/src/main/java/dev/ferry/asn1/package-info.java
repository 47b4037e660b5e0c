/**
 * ASN.1 BER and DER (X.690) that copies a value at most once.
 *
 * <p>Start with {@link dev.ferry.asn1.BerReader}, which reads elements from an array or a
 * stream and hands out values as slices of the bytes, and {@link dev.ferry.asn1.BerWriter},
 * which writes them with each value copied once. {@link dev.ferry.asn1.BerRules} chooses BER,
 * LDAP's subset or DER; {@link dev.ferry.asn1.BerLimits} bounds sizes and nesting.
 */
package dev.ferry.asn1;
