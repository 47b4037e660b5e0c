package dev.ferry.wssecurity.internal;

import java.util.Set;
import org.apache.xml.security.stax.ext.XMLSecurityConstants;

/**
 * The algorithms a received message is refused for unless weak ones are let in: SHA-1 and MD5
 * in signatures and their digests, RSA PKCS#1 v1.5 key transport, 3DES. RSA-OAEP's own SHA-1
 * (the digest of its padding, as {@code rsa-oaep-mgf1p} has it) is not a signature digest and
 * stays allowed.
 */
final class Algorithms {
  private static final Set<String> WEAK = Set.of(
      "http://www.w3.org/2000/09/xmldsig#sha1",
      "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
      "http://www.w3.org/2000/09/xmldsig#dsa-sha1",
      "http://www.w3.org/2000/09/xmldsig#hmac-sha1",
      "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha1",
      "http://www.w3.org/2001/04/xmldsig-more#md5",
      "http://www.w3.org/2001/04/xmldsig-more#rsa-md5",
      "http://www.w3.org/2001/04/xmlenc#rsa-1_5",
      "http://www.w3.org/2001/04/xmlenc#tripledes-cbc",
      "http://www.w3.org/2001/04/xmlenc#kw-tripledes");

  private Algorithms() {}

  static boolean isWeak(String uri, XMLSecurityConstants.AlgorithmUsage usage) {
    return uri != null && WEAK.contains(uri) && usage != XMLSecurityConstants.EncDig;
  }
}
