package dev.ferry.jaxws.internal;

import java.lang.reflect.Method;

/**
 * An asynchronous variant of an operation on a client's interface: {@code xAsync(in...)}
 * returning {@code Response<T>}, or {@code xAsync(in..., AsyncHandler<T>)} returning
 * {@code Future<?>}. Its arguments are the values of the operation's request parts; {@code T} is
 * the one response part's type, or the response wrapper bean that holds them all.
 */
public final class AsyncOperation {
  private final Method method;
  private final Operation operation;
  private final boolean withHandler;
  private final Part bean;

  AsyncOperation(Method method, Operation operation, boolean withHandler, Part bean) {
    this.method = method;
    this.operation = operation;
    this.withHandler = withHandler;
    this.bean = bean;
  }

  public Method method() {
    return method;
  }

  public Operation operation() {
    return operation;
  }

  /** Returns true for the {@code Future<?>} form whose last argument is an AsyncHandler. */
  public boolean withHandler() {
    return withHandler;
  }

  /** Returns the response wrapper bean's part, or null when T is one part's type. */
  Part bean() {
    return bean;
  }

  /** Returns the request part values from the asynchronous method's arguments. */
  public Object[] requestValues(Object[] args) {
    Object[] values = new Object[operation.inParts().size()];
    System.arraycopy(args, 0, values, 0, values.length);
    return values;
  }
}
