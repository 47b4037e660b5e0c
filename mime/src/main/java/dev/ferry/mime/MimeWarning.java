package dev.ferry.mime;

/**
 * A malformed header field or parameter that lenient header parsing read past instead of
 * failing: what was wrong and what was done about it ({@link #reason()}), the absolute offset of
 * the first offending byte ({@link #byteOffset()}), and where ({@link #context()}, for example
 * {@code part 2 > header "Content-Type" > parameter "name"}). The same shape as a
 * {@link MimeException}, which strict parsing throws for the same input.
 *
 * @see MultipartParser.Builder#lenientHeaders(boolean)
 * @see MimeHeaders#warnings()
 */
public record MimeWarning(String reason, long byteOffset, String context) {

  /** Returns {@code <reason> at byte <n> [<context>]}, as a {@link MimeException} reads. */
  @Override
  public String toString() {
    return reason + (byteOffset >= 0 ? " at byte " + byteOffset : "")
        + (context.isEmpty() ? "" : " [" + context + "]");
  }
}
