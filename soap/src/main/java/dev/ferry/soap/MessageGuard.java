package dev.ferry.soap;

import dev.ferry.xop.RootFilter;
import java.io.IOException;
import java.security.Principal;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * What a node does to its messages between the wire and its application, such as WS-Security:
 * it opens what it receives (checks it, and decrypts what is encrypted) and protects what it
 * sends (signs, encrypts, adds tokens). The server runs one per endpoint, the client one per
 * call, the broker one per route. Only the envelope passes through a guard; attachments stream
 * past it untouched.
 */
public interface MessageGuard {
  /**
   * A received message as the application is to see it, and what its checks found:
   * {@code bodyProtected} says that a signature covers the Body that every reader of the message
   * returns, {@code protectedHeaders} the header blocks it covers (one block of each name).
   */
  record Opened(Message message, Principal principal, Set<QName> protectedHeaders,
      boolean bodyProtected) {
    public Opened {
      protectedHeaders = Set.copyOf(protectedHeaders);
    }

    /** A message whose Body no signature covers. */
    public Opened(Message message, Principal principal, Set<QName> protectedHeaders) {
      this(message, principal, protectedHeaders, false);
    }
  }

  /**
   * Checks {@code received} and returns it opened: the same message when nothing was encrypted,
   * else a changed copy. {@code principal} is who the message says sent it (null if it does not
   * say), {@code protectedHeaders} the header blocks a signature covers, which a node passing
   * the message on must not change.
   *
   * @throws FaultException if the message fails a check, with the fault to answer
   */
  Opened open(Message received) throws IOException;

  /** Returns {@code outgoing} as it is to go on the wire (through {@link RootFilter}s). */
  Payload protect(Payload outgoing) throws IOException;

  /**
   * Protects {@code message}'s envelope now, in place ({@link Message#replaceEnvelope}): for a
   * node that passes a received message on, such as a broker signing it anew.
   */
  Message protect(Message message) throws IOException;

  /** The header blocks this guard processes, so that mustUnderstand on them is met. */
  Set<QName> understands();
}
