package dev.ferry.broker;

import dev.ferry.logging.MessageLog;
import dev.ferry.logging.internal.MessageTap;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The message log of one exchange through the broker: the caller's request as it came, each
 * piece shown to a {@link MessageTap} on the loop as it arrives (held and streamed alike, before
 * any route changes it), and the answer as it goes back (a member's reply relayed, or the
 * broker's own fault). A piece is read where it lies, through a tap on a stream that writes
 * nowhere, so nothing is held beyond the envelope's first bytes the tap keeps and no byte the
 * exchange moves changes. {@link #OFF} without a message log, or for what is not a SOAP POST.
 */
final class ExchangeMessages {
  static final ExchangeMessages OFF = new ExchangeMessages(null, 0, null, null);

  private final MessageLog log;
  private final long exchange;
  private final HttpRequest request;
  private final MessageTap requestTap;
  private final OutputStream requestSeen;
  private volatile HttpResponse replyHead;
  private volatile MessageTap replyTap = MessageTap.OFF;
  private OutputStream replySeen = OutputStream.nullOutputStream();

  private ExchangeMessages(MessageLog log, long exchange, HttpRequest request,
      SocketAddress from) {
    this.log = log;
    this.exchange = exchange;
    this.request = request;
    String caller = from instanceof InetSocketAddress a ? a.getAddress().getHostAddress()
        : String.valueOf(from);
    this.requestTap = request == null ? MessageTap.OFF : MessageTap.open(log,
        () -> "broker request " + exchange + " " + request.method() + " " + request.uri()
            + " from " + caller, () -> request.headers().get(HttpHeaderNames.CONTENT_TYPE));
    this.requestSeen = requestTap.tap(OutputStream.nullOutputStream());
  }

  /** The log of the exchange of {@code request}; {@link #OFF} if {@code log} is null or off. */
  static ExchangeMessages open(MessageLog log, HttpRequest request, SocketAddress from) {
    return log == null || !log.enabled() ? OFF
        : new ExchangeMessages(log, log.nextExchange(), request, from);
  }

  /** A piece of the request's body, as it came from the caller. */
  void request(ByteBuf piece) {
    if (requestTap.on()) {
      see(piece, requestSeen);
    }
  }

  /** The request's envelope was read (a streamed request's attachments are still to come). */
  void requestRead() {
    if (requestTap.on()) {
      requestTap.log(request.headers());
    }
  }

  /** The request came to its end: its record, or what of its attachments followed the record. */
  void requestEnded() {
    if (requestTap.on()) {
      requestTap.finish(request.headers());
    }
  }

  /** The answer's head, about to go back; its pieces follow ({@link #reply(ByteBuf)}). */
  void reply(HttpResponse head) {
    if (!requestTap.on() || replyHead != null) {
      return;
    }
    replyHead = head;
    MessageTap tap = MessageTap.open(log, () -> "broker reply " + exchange + " "
        + head.status().code(), () -> head.headers().get(HttpHeaderNames.CONTENT_TYPE));
    replySeen = tap.tap(OutputStream.nullOutputStream());
    replyTap = tap;
  }

  /** A piece of the answer, about to go back to the caller. */
  void reply(ByteBuf piece) {
    if (replyTap.on()) {
      see(piece, replySeen);
    }
  }

  /** The exchange ended: what is left of the request's record, and the answer's. */
  void finish() {
    if (requestTap.on()) {
      requestTap.finish(request.headers());
      HttpResponse head = replyHead;
      if (head != null) {
        replyTap.finish(head.headers());
      }
    }
  }

  /** Shows {@code piece}'s readable bytes to a tap, leaving its indexes as they were. */
  private static void see(ByteBuf piece, OutputStream tapped) {
    try {
      piece.getBytes(piece.readerIndex(), tapped, piece.readableBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a stream that writes nowhere does not fail
    }
  }
}
