package dev.ferry.jaxws.internal;

import java.util.Iterator;
import javax.xml.namespace.NamespaceContext;
import org.jvnet.staxex.NamespaceContextEx;

/**
 * A reader's or writer's namespaces as stax-ex's {@link NamespaceContextEx}, which its readers
 * and writers return; JAXB asks them for prefixes and namespaces, never for the bindings' list.
 */
final class StaxExNamespaces {
  private StaxExNamespaces() {}

  static NamespaceContextEx of(NamespaceContext c) {
    return new NamespaceContextEx() {
      @Override
      public String getNamespaceURI(String prefix) {
        return c.getNamespaceURI(prefix);
      }

      @Override
      public String getPrefix(String namespaceUri) {
        return c.getPrefix(namespaceUri);
      }

      @Override
      public Iterator<String> getPrefixes(String namespaceUri) {
        return c.getPrefixes(namespaceUri);
      }

      @Override
      public Iterator<Binding> iterator() {
        throw new UnsupportedOperationException("the bindings in scope are not listed here");
      }
    };
  }
}
