package dev.ferry.xop;

/**
 * When binary content travels as an attachment rather than inline base64.
 *
 * <p>{@link #threshold(int)} sends content of at least that many bytes as an attachment. The
 * default, {@link #DEFAULT}, uses {@value #DEFAULT_THRESHOLD_BYTES} bytes: below it the MIME
 * part's framing (delimiter, three header lines, an {@code xop:Include} element) costs more on
 * the wire than base64's 33% and the time is no better. {@code ferry bench threshold} measures
 * the crossover on a given machine.
 */
public final class MtomPolicy {
  public static final int DEFAULT_THRESHOLD_BYTES = 2048;

  /** Never MTOM: binary content is inline base64 and the message is plain XML. */
  public static final MtomPolicy NEVER = new MtomPolicy(false, Long.MAX_VALUE);
  /** Always MTOM, every binary an attachment, however small. */
  public static final MtomPolicy ALWAYS = new MtomPolicy(true, 0);
  /** MTOM with the default threshold. */
  public static final MtomPolicy DEFAULT = threshold(DEFAULT_THRESHOLD_BYTES);

  private final boolean mtom;
  private final long thresholdBytes;

  private MtomPolicy(boolean mtom, long thresholdBytes) {
    this.mtom = mtom;
    this.thresholdBytes = thresholdBytes;
  }

  /** MTOM; content of at least {@code bytes} bytes becomes an attachment, smaller is inline. */
  public static MtomPolicy threshold(int bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("threshold < 0: " + bytes);
    }
    return new MtomPolicy(true, bytes);
  }

  /** Returns true if messages are MTOM packages (multipart/related) rather than plain XML. */
  public boolean isMtom() {
    return mtom;
  }

  /** Returns the size from which content becomes an attachment. */
  public long thresholdBytes() {
    return thresholdBytes;
  }

  /** Returns true if content of {@code size} bytes goes as an attachment. */
  public boolean attaches(long size) {
    return mtom && size >= thresholdBytes;
  }

  @Override
  public String toString() {
    return !mtom ? "MtomPolicy[never]" : "MtomPolicy[threshold=" + thresholdBytes + "]";
  }
}
