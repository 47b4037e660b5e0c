package dev.ferry.cli;

import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import picocli.CommandLine.Option;

/**
 * The message size limit, for commands that read SOAP messages (a picocli mixin). Only the
 * root part (the envelope) is held in memory, and inline base64 lives in it: raising this is
 * what lets a large blob travel without MTOM. Attachments are spooled and need no limit here.
 */
final class LimitOptions {
  /** The library's default, {@link XopLimits#DEFAULT_MAX_ROOT_BYTES}, as the option takes it. */
  static final String DEFAULT_MAX_ROOT = "64M";

  @Option(names = "--max-root", paramLabel = "SIZE", converter = ByteSize.Converter.class,
      defaultValue = DEFAULT_MAX_ROOT,
      description = "Largest envelope (root part) to accept, inline base64 included; MTOM"
          + " attachments do not count. Default: ${DEFAULT-VALUE}.")
  int maxRootBytes;

  /** A codec with these limits, and at least {@code minimumRootBytes} for the envelope. */
  SoapCodec codec(int minimumRootBytes) {
    return codecWithRoot(Math.max(minimumRootBytes, maxRootBytes));
  }

  SoapCodec codec() {
    return codec(0);
  }

  static SoapCodec codecWithRoot(int maxRootBytes) {
    XopLimits xop = XopLimits.builder().maxRootBytes(maxRootBytes).build();
    return SoapCodec.create(SoapLimits.builder().xop(xop).build(), XopCodec.builder());
  }

  /**
   * The envelope size a testMtom request with a blob of {@code blobBytes} needs when the blob is
   * inline: base64's four characters per three bytes, plus room for the rest of the envelope.
   */
  static int rootBytesForInline(int blobBytes) {
    long base64 = 4L * ((blobBytes + 2L) / 3);
    return (int) Math.min(Integer.MAX_VALUE, base64 + 64 * 1024);
  }
}
