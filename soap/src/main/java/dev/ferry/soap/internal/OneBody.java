package dev.ferry.soap.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.internal.BytesAccess;
import dev.ferry.mime.internal.DelimiterSearch;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells, without parsing the Body, that an envelope's Body ends where its tail says: a search
 * of the Body's content for the Body's own end tag.
 *
 * <p>The index finds the Body's end from the envelope's tail ({@code </p:Body> </p:Envelope>}),
 * so that the Body is not parsed. Two Bodies in a row have that tail too, the second one's; but
 * the first Body, holding an element, ends with an end tag named exactly as its start tag, so
 * {@code </p:Body} occurs in the content before the tail's. Where it does not occur there is one
 * Body; where it does (a second Body, or the rare element of that very name inside the Body, or
 * the text in a comment), the index parses the Body to decide.
 */
public final class OneBody {
  private static final BytesAccess BYTES = BytesAccess.get();
  /** Searches by end tag; the few prefixes senders use are kept, others made per message. */
  private static final Map<String, DelimiterSearch> SEARCHES = new ConcurrentHashMap<>();
  private static final int KEPT = 16;
  private static final int LONGEST = 120; // DelimiterSearch's longest delimiter

  private OneBody() {}

  /**
   * Returns true if {@code </prefix:Body} (or {@code </Body} for no prefix) occurs in
   * {@code envelope[from, to)}, or if the search cannot tell (a prefix too long to search for).
   */
  public static boolean endTagIn(ByteString envelope, String prefix, int from, int to) {
    DelimiterSearch search = search(prefix);
    if (search == null) {
      return true;
    }
    int base = BYTES.arrayOffset(envelope);
    return search.indexIn(BYTES.array(envelope), base + from, base + to) >= 0;
  }

  private static DelimiterSearch search(String prefix) {
    DelimiterSearch s = SEARCHES.get(prefix);
    if (s != null) {
      return s;
    }
    byte[] tag = ("</" + (prefix.isEmpty() ? "" : prefix + ":") + "Body")
        .getBytes(StandardCharsets.UTF_8);
    if (tag.length > LONGEST) {
      return null;
    }
    s = new DelimiterSearch(tag);
    if (SEARCHES.size() < KEPT) {
      SEARCHES.putIfAbsent(prefix, s);
    }
    return s;
  }
}
