package dev.ferry.jaxws.internal;

import io.opentelemetry.context.Context;
import jakarta.xml.ws.AsyncHandler;
import jakarta.xml.ws.Response;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The result of an asynchronous call: a future whose context is the call's response context.
 * The call runs on the port's executor (virtual threads unless the service was given one); an
 * {@link AsyncHandler} is called on that thread once the result is in.
 */
final class AsyncResponse<T> extends CompletableFuture<T> implements Response<T> {
  private volatile Map<String, Object> context = Map.of();

  /** What an asynchronous call does: the synchronous call, and the context it left. */
  interface Call<T> {
    T call() throws Exception;
  }

  static <T> AsyncResponse<T> start(Executor executor, PortState port, Call<T> call,
      AsyncHandler<T> handler) {
    AsyncResponse<T> r = new AsyncResponse<>();
    // the call's span is a child of the caller's current one, on the executor's thread too
    executor.execute(Context.current().wrap(() -> {
      try {
        T value = call.call();
        r.context = port.getResponseContext();
        r.complete(value);
      } catch (Throwable t) {
        r.context = port.getResponseContext();
        r.completeExceptionally(t);
      }
      if (handler != null) {
        handler.handleResponse(r);
      }
    }));
    return r;
  }

  @Override
  public Map<String, Object> getContext() {
    return context;
  }
}
