package dev.ferry.jaxws.internal;

import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.attachment.AttachmentMarshaller;
import jakarta.xml.bind.attachment.AttachmentUnmarshaller;
import java.lang.reflect.Type;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import org.glassfish.jaxb.runtime.api.Bridge;
import org.glassfish.jaxb.runtime.api.TypeReference;

/**
 * One part of an operation's messages: a parameter, the return value, or a header. It knows its
 * element name and reads and writes its value through a JAXB bridge made once, when the
 * endpoint's or port's context is made.
 */
public final class Part {
  /** Which messages the part travels in. */
  public enum Mode { IN, OUT, INOUT }

  /** The argument index of the return value. */
  public static final int RETURN = -1;

  private final QName element;
  private final int index;
  private final Mode mode;
  private final boolean header;
  private final boolean holder;
  private final TypeReference type;
  private final Class<?> container;
  private Bridge<Object> bridge;
  private StrictUnmarshallers unmarshallers;

  Part(QName element, int index, Mode mode, boolean header, boolean holder, TypeReference type) {
    this(element, index, mode, header, holder, type, null);
  }

  /**
   * A part whose value is a collection or an array ({@code container}) that travels as one
   * element per item, each of {@code item}'s type: what a wrapper bean's collection property is.
   */
  Part(QName element, int index, Mode mode, boolean header, boolean holder, TypeReference item,
      Class<?> container) {
    this.element = element;
    this.index = index;
    this.mode = mode;
    this.header = header;
    this.holder = holder;
    this.type = item;
    this.container = container;
  }

  /** Returns the element the value travels as. */
  public QName element() {
    return element;
  }

  /** Returns the argument index, or {@link #RETURN}. */
  public int index() {
    return index;
  }

  public Mode mode() {
    return mode;
  }

  public boolean isHeader() {
    return header;
  }

  /** Returns true if the argument is a {@code Holder} (the value is its {@code value}). */
  public boolean isHolder() {
    return holder;
  }

  /** Returns true if the part is in the request. */
  public boolean isIn() {
    return mode != Mode.OUT && index != RETURN;
  }

  /** Returns true if the part is in the response. */
  public boolean isOut() {
    return mode != Mode.IN || index == RETURN;
  }

  /** Returns the value's type (a Holder's type argument; an item's type if repeated). */
  public Type valueType() {
    return type.type;
  }

  /** Returns true if the value is a collection or array written as one element per item. */
  public boolean isRepeated() {
    return container != null;
  }

  /** Returns the items of a repeated part's value. */
  Iterable<?> items(Object value) {
    if (value instanceof Iterable<?> i) {
      return i;
    }
    int n = java.lang.reflect.Array.getLength(value);
    java.util.List<Object> items = new java.util.ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      items.add(java.lang.reflect.Array.get(value, i));
    }
    return items;
  }

  /** Returns a repeated part's value made of {@code items}. */
  Object collect(java.util.List<Object> items) {
    if (container.isArray()) {
      Object array = java.lang.reflect.Array.newInstance(container.getComponentType(),
          items.size());
      for (int i = 0; i < items.size(); i++) {
        java.lang.reflect.Array.set(array, i, items.get(i));
      }
      return array;
    }
    return java.util.Set.class.isAssignableFrom(container)
        ? new java.util.LinkedHashSet<>(items) : items;
  }

  TypeReference typeReference() {
    return type;
  }

  @SuppressWarnings("unchecked")
  void bind(Bridge<?> b, StrictUnmarshallers unmarshallers) {
    this.bridge = (Bridge<Object>) b;
    this.unmarshallers = unmarshallers;
  }

  /** Writes {@code value} as this part's element. */
  void write(Object value, XMLStreamWriter out, AttachmentMarshaller am) throws JAXBException {
    bridge.marshal(value, BinaryStaxWriter.of(out), am);
  }

  /** Reads this part's element, on which {@code in} stands; leaves it after the end tag. */
  Object read(XMLStreamReader in, AttachmentUnmarshaller au) throws JAXBException {
    jakarta.xml.bind.Unmarshaller u = unmarshallers.take();
    try {
      u.setAttachmentUnmarshaller(au);
      return bridge.unmarshal(u, BinaryStaxReader.of(in));
    } finally {
      unmarshallers.give(u);
    }
  }

  @Override
  public String toString() {
    return "Part[" + element + ", " + (index == RETURN ? "return" : "arg" + index) + ", " + mode
        + (header ? ", header" : "") + "]";
  }
}
