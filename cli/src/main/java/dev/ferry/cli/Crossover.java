package dev.ferry.cli;

/**
 * Where MTOM starts to cost less than inline base64, from costs measured at increasing blob
 * sizes (time or bytes). MTOM counts as cheaper from the smallest size at which it is cheaper
 * at that size and at every larger one, so one noisy win among small sizes does not count.
 * Between the last size where base64 won and the first where MTOM did, the crossover is
 * interpolated where the cost ratio passes 1, on log scales (costs grow about as powers of the
 * size), and rounded to a multiple of {@value #ROUNDING} bytes: finer would be false precision.
 *
 * @param kind what the sizes said
 * @param lastBase64Bytes the largest size at which base64 was cheaper or tied (0 if none)
 * @param firstMtomBytes the smallest size from which MTOM was cheaper (0 if none)
 * @param thresholdBytes the size from which to send binary as an attachment (0 if none)
 */
record Crossover(Kind kind, int lastBase64Bytes, int firstMtomBytes, int thresholdBytes) {
  /** What the measured sizes showed. */
  enum Kind {
    /** Base64 cheaper below, MTOM from some measured size on. */
    BETWEEN_SIZES,
    /** MTOM cheaper at every measured size: the crossover is at or below the smallest. */
    MTOM_AT_ALL_SIZES,
    /** MTOM not cheaper at the largest size: the crossover, if any, is above it. */
    BASE64_AT_LARGEST_SIZE
  }

  static final int ROUNDING = 256;

  /** {@code sizes} ascending; {@code base64[i]} and {@code mtom[i]} the costs at sizes[i]. */
  static Crossover find(int[] sizes, double[] base64, double[] mtom) {
    if (sizes.length == 0 || base64.length != sizes.length || mtom.length != sizes.length) {
      throw new IllegalArgumentException("one base64 and one MTOM cost per size, at least one");
    }
    int first = sizes.length;
    while (first > 0 && mtom[first - 1] < base64[first - 1]) {
      first--;
    }
    if (first == sizes.length) {
      return new Crossover(Kind.BASE64_AT_LARGEST_SIZE, sizes[sizes.length - 1], 0, 0);
    }
    if (first == 0) {
      return new Crossover(Kind.MTOM_AT_ALL_SIZES, 0, sizes[0], sizes[0]);
    }
    int below = sizes[first - 1];
    int above = sizes[first];
    double ratioBelow = mtom[first - 1] / base64[first - 1];
    double ratioAbove = mtom[first] / base64[first];
    double share = positiveLog(ratioBelow)
        / (positiveLog(ratioBelow) - Math.log(ratioAbove));
    double crossover = Math.exp(Math.log(below) + share * (Math.log(above) - Math.log(below)));
    long rounded = Math.round(crossover / ROUNDING) * ROUNDING;
    int threshold = (int) Math.max(below, Math.min(above, rounded));
    return new Crossover(Kind.BETWEEN_SIZES, below, above, threshold);
  }

  /** The log of a ratio that is at least 1 (where base64 won); infinite costs count as 1. */
  private static double positiveLog(double ratio) {
    return Double.isFinite(ratio) ? Math.max(0, Math.log(ratio)) : 0;
  }

  /** In words: where MTOM became cheaper, at which measured sizes. */
  String describe() {
    return switch (kind) {
      case BETWEEN_SIZES -> "MTOM is cheaper from " + ByteSize.format(firstMtomBytes)
          + " up, base64 at " + ByteSize.format(lastBase64Bytes) + "; crossover about "
          + thresholdBytes + " bytes";
      case MTOM_AT_ALL_SIZES -> "MTOM is cheaper at every size measured, from "
          + ByteSize.format(firstMtomBytes) + " up";
      case BASE64_AT_LARGEST_SIZE -> "MTOM is not cheaper at the largest size measured, "
          + ByteSize.format(lastBase64Bytes);
    };
  }

  String toJson() {
    return "{\"kind\":" + Json.str(kind.name()) + ",\"lastBase64Bytes\":" + lastBase64Bytes
        + ",\"firstMtomBytes\":" + firstMtomBytes + ",\"crossoverBytes\":" + thresholdBytes
        + "}";
  }
}
