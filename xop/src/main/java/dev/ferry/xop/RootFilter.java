package dev.ferry.xop;

import dev.ferry.bytes.ByteString;
import java.io.IOException;

/**
 * Changes a message's root part (its XML) on the way out, after it was written whole and before
 * any attachment is: for a step that must see the whole envelope, such as signing it. The
 * attachments are not passed through it; they stream after the changed root as they would.
 */
@FunctionalInterface
public interface RootFilter {
  /** Returns the root to send in place of {@code root} (which the filter must not keep). */
  ByteString apply(ByteString root) throws IOException;
}
