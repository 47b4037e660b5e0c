package dev.ferry.soap;

import dev.ferry.bytes.DecodeException;

/**
 * An envelope whose namespace is neither SOAP 1.1's nor SOAP 1.2's: the one error SOAP answers
 * with a VersionMismatch fault instead of a Sender fault.
 */
public final class VersionMismatchException extends DecodeException {
  private static final long serialVersionUID = 1L;

  private final String namespace;

  public VersionMismatchException(String namespace, long byteOffset) {
    super("unknown SOAP envelope namespace \"" + namespace + "\" (expected: SOAP 1.1 or 1.2)",
        byteOffset, "envelope");
    this.namespace = namespace;
  }

  /** Returns the envelope's namespace, which no SOAP version has. */
  public String namespace() {
    return namespace;
  }
}
