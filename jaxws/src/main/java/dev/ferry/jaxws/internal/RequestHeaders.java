package dev.ferry.jaxws.internal;

import jakarta.servlet.http.HttpServletRequest;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A request's HTTP headers as JAX-WS hands them out ({@code MessageContext.HTTP_REQUEST_HEADERS}):
 * a read-only view over the servlet request, names case-insensitive as HTTP's are, each value
 * list read from the request when asked for. Nothing is copied when the context is made, and a
 * caller that looks up one header reads only that one: a copy of every header, made for every
 * call whose endpoint asks for one, was a visible part of a small call's CPU. Valid while the
 * request is, as a {@code WebServiceContext} is.
 * The names are the container's {@code getHeaderNames()}, which servlet containers (Jetty,
 * Tomcat) give once per name whatever its case.
 */
final class RequestHeaders extends AbstractMap<String, List<String>> {
  private final HttpServletRequest http;

  RequestHeaders(HttpServletRequest http) {
    this.http = http;
  }

  @Override
  public List<String> get(Object name) {
    if (!(name instanceof String s)) {
      return null;
    }
    Enumeration<String> values = http.getHeaders(s);
    return values == null || !values.hasMoreElements() ? null
        : Collections.unmodifiableList(Collections.list(values));
  }

  @Override
  public boolean containsKey(Object name) {
    return name instanceof String s && http.getHeader(s) != null;
  }

  @Override
  public Set<Entry<String, List<String>>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, List<String>>> iterator() {
        Enumeration<String> names = http.getHeaderNames();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return names != null && names.hasMoreElements();
          }

          @Override
          public Entry<String, List<String>> next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return new Header(names.nextElement());
          }
        };
      }

      @Override
      public int size() {
        Enumeration<String> names = http.getHeaderNames();
        int n = 0;
        for (; names != null && names.hasMoreElements(); names.nextElement()) {
          n++;
        }
        return n;
      }
    };
  }

  /** One header: its values are read when asked for, so a search by name reads only names. */
  private final class Header implements Map.Entry<String, List<String>> {
    private final String name;

    Header(String name) {
      this.name = name;
    }

    @Override
    public String getKey() {
      return name;
    }

    @Override
    public List<String> getValue() {
      List<String> values = get(name);
      return values == null ? List.of() : values;
    }

    @Override
    public List<String> setValue(List<String> value) {
      throw new UnsupportedOperationException("the request's headers are read-only");
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e && name.equals(e.getKey())
          && getValue().equals(e.getValue());
    }

    @Override
    public int hashCode() {
      return name.hashCode() ^ getValue().hashCode();
    }

    @Override
    public String toString() {
      return name + "=" + getValue();
    }
  }
}
