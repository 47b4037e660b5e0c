package dev.ferry.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Message logging for support, as CXF's LoggingFeature does it: each request and reply that the
 * server, client or broker it is given to exchanges is written to the logger {@value #LOGGER}
 * at INFO, one record per message: a title (direction, exchange number, method and path or
 * status), the HTTP headers, the envelope, and one line per attachment (its Content-ID, type and
 * size).
 *
 * <p>Everything is masked with {@link LogMasking} (passwords, tokens, credentials, card
 * numbers), plus the elements and attributes named by {@link Builder#maskNames} and the values
 * of the headers named by {@link Builder#maskHeaders} ({@value #DEFAULT_MASKED_HEADERS} always).
 * An envelope is logged up to {@link Builder#maxBytes} bytes; a longer one is cut there and the
 * record says how many bytes were left out. Attachments are never read for the log, held or
 * written to it: their bytes are counted as they pass on their way to the endpoint or the
 * caller, so a size is known once the part went by, and is given as unknown otherwise. The log
 * reads the bytes the exchange moves anyway and changes none of them.
 *
 * <p>Off unless given to a server or client; with the logger's level above INFO it costs a
 * level check per message.
 */
public final class MessageLog {
  /** The logger messages go to. */
  public static final String LOGGER = "dev.ferry.messages";
  /** The default cap on the envelope bytes logged per message. */
  public static final int DEFAULT_MAX_BYTES = 16 * 1024;
  /** Headers whose values are always masked. */
  public static final String DEFAULT_MASKED_HEADERS =
      "Authorization, Proxy-Authorization, Cookie, Set-Cookie";

  private final int maxBytes;
  private final LogMasking masking;
  private final Set<String> maskedHeaders;
  private final System.Logger logger;
  private final AtomicLong exchanges = new AtomicLong();

  private MessageLog(Builder b) {
    this.maxBytes = b.maxBytes;
    this.masking = LogMasking.defaults().withNames(b.names);
    Set<String> headers = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    headers.addAll(List.of(DEFAULT_MASKED_HEADERS.split(", ")));
    headers.addAll(b.headers);
    this.maskedHeaders = headers;
    this.logger = System.getLogger(LOGGER);
  }

  /** Message logging with the defaults. */
  public static MessageLog create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The most envelope bytes logged per message. */
  public int maxBytes() {
    return maxBytes;
  }

  /** The masking applied to every line. */
  public LogMasking masking() {
    return masking;
  }

  /** Whether the value of the header {@code name} is masked whatever it holds. */
  public boolean masksHeader(String name) {
    return maskedHeaders.contains(name);
  }

  /** Whether records would be written now (the logger's level lets INFO through). */
  public boolean enabled() {
    return logger.isLoggable(System.Logger.Level.INFO);
  }

  /** A new exchange's number, shared by its request and its reply. */
  public long nextExchange() {
    return exchanges.incrementAndGet();
  }

  /** Writes one record, already masked. */
  public void write(String record) {
    logger.log(System.Logger.Level.INFO, record);
  }

  @Override
  public String toString() {
    return "MessageLog[maxBytes=" + maxBytes + ", maskedHeaders=" + maskedHeaders + "]";
  }

  public static final class Builder {
    private int maxBytes = DEFAULT_MAX_BYTES;
    private final List<String> names = new ArrayList<>();
    private final List<String> headers = new ArrayList<>();

    private Builder() {}

    /** The most envelope bytes logged per message, at least 1 (default 16 KiB). */
    public Builder maxBytes(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxBytes < 1: " + bytes);
      }
      this.maxBytes = bytes;
      return this;
    }

    /**
     * Masks the content of elements, and the values of attributes, with these local names
     * (any case), beside those {@link LogMasking} masks anyway.
     */
    public Builder maskNames(String... names) {
      for (String n : names) {
        this.names.add(n.trim());
      }
      return this;
    }

    /** Masks the values of these HTTP headers (any case), beside the default ones. */
    public Builder maskHeaders(String... names) {
      for (String n : names) {
        this.headers.add(n.trim().toLowerCase(Locale.ROOT));
      }
      return this;
    }

    /** @throws IllegalArgumentException for a name that is not an XML name */
    public MessageLog build() {
      return new MessageLog(this);
    }
  }
}
