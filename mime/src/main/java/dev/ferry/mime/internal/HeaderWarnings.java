package dev.ferry.mime.internal;

import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * The warnings of one header section under lenient parsing, at most {@code max} of them: each
 * costs memory and a malformed section could otherwise hold thousands (one per byte pair).
 */
public final class HeaderWarnings {
  private final int max;
  private List<MimeWarning> list;

  public HeaderWarnings(int max) {
    this.max = max;
  }

  /**
   * Records that {@code error} was read past, and what was done ({@code outcome}).
   *
   * @throws MimeException {@code MimeLimits.maxHeaderWarnings} if this is one too many
   */
  public void add(MimeException error, String outcome) throws MimeException {
    if (list == null) {
      list = new ArrayList<>(2);
    }
    if (list.size() == max) {
      throw MimeException.limitExceeded("MimeLimits.maxHeaderWarnings", max, max + 1L,
          error.byteOffset(), error.context());
    }
    list.add(new MimeWarning(error.reason() + "; " + outcome, error.byteOffset(),
        error.context()));
  }

  /** Returns the warnings, in the order they were found. */
  public List<MimeWarning> list() {
    return list == null ? List.of() : List.copyOf(list);
  }
}
