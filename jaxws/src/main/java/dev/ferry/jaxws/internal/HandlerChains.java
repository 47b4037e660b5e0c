package dev.ferry.jaxws.internal;

import jakarta.jws.HandlerChain;
import jakarta.jws.WebService;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.handler.Handler;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Handler chains written as XML (JSR-109's {@code handler-chains}, in any of the Java EE or
 * Jakarta EE namespaces): the file an endpoint's {@code @HandlerChain} names, or the element a
 * deployment descriptor holds. The handlers of every chain, in order; the chains' port, service
 * and protocol patterns are refused rather than ignored.
 *
 * <pre>
 * handler-chains = &lt;handler-chains&gt; (&lt;handler-chain&gt; handler* &lt;/handler-chain&gt;)*
 * handler        = &lt;handler&gt; [&lt;handler-name&gt;] &lt;handler-class&gt; &lt;/handler&gt;
 * </pre>
 */
public final class HandlerChains {
  private HandlerChains() {}

  /**
   * Reads the handler classes from {@code in}, positioned on {@code <handler-chains>}, to its
   * end tag; {@code where} names the document in messages.
   *
   * @throws WebServiceException naming the line, for anything but the grammar above
   */
  public static List<String> read(XMLStreamReader in, String where) throws XMLStreamException {
    List<String> classes = new ArrayList<>();
    expect(in, "handler-chains", where);
    while (in.nextTag() == XMLStreamConstants.START_ELEMENT) {
      expect(in, "handler-chain", where);
      while (in.nextTag() == XMLStreamConstants.START_ELEMENT) {
        expect(in, "handler", where);
        classes.add(handler(in, where));
      }
    }
    return List.copyOf(classes);
  }

  private static String handler(XMLStreamReader in, String where) throws XMLStreamException {
    int line = in.getLocation().getLineNumber();
    String type = null;
    while (in.nextTag() == XMLStreamConstants.START_ELEMENT) {
      String local = in.getLocalName();
      if (local.equals("handler-name")) {
        in.getElementText();
      } else if (local.equals("handler-class")) {
        type = in.getElementText().strip();
      } else {
        throw new WebServiceException(where + ", line " + in.getLocation().getLineNumber()
            + ": <" + local + "> in a <handler> is not read here (expected: handler-name,"
            + " handler-class)");
      }
    }
    if (type == null || type.isEmpty()) {
      throw new WebServiceException(where + ", line " + line + ": <handler> has no"
          + " <handler-class>");
    }
    return type;
  }

  private static void expect(XMLStreamReader in, String local, String where) {
    if (!in.getLocalName().equals(local)) {
      throw new WebServiceException(where + ", line " + in.getLocation().getLineNumber()
          + ": expected <" + local + ">, found <" + in.getLocalName() + ">"
          + (local.equals("handler-chain") || local.equals("handler") ? " (port, service and"
          + " protocol patterns are not supported: one chain serves the endpoint)" : ""));
    }
  }

  /**
   * The chain {@code type}'s {@code @HandlerChain} names (on the class, else on its service
   * endpoint interface), made with the class's loader; empty without one.
   *
   * @throws WebServiceException if the file is not found next to the class, cannot be read, or
   *     a handler cannot be made
   */
  @SuppressWarnings("rawtypes")
  public static List<Handler> of(Class<?> type) {
    Class<?> annotated = annotated(type);
    if (annotated == null) {
      return List.of();
    }
    String file = annotated.getAnnotation(HandlerChain.class).file();
    String where = "@HandlerChain(file = \"" + file + "\") of " + annotated.getName();
    URL url = annotated.getResource(file);
    if (url == null) {
      throw new WebServiceException(where + ": no such file next to the class (or on the class"
          + " path, for a name starting with /)");
    }
    List<String> names = parse(url, where);
    List<Handler> chain = new ArrayList<>();
    for (String name : names) {
      chain.add(make(name, annotated.getClassLoader(), where));
    }
    return chain;
  }

  private static Class<?> annotated(Class<?> type) {
    if (type.isAnnotationPresent(HandlerChain.class)) {
      return type;
    }
    WebService ws = type.getAnnotation(WebService.class);
    if (ws == null || ws.endpointInterface().isEmpty()) {
      return null;
    }
    try {
      Class<?> sei = Class.forName(ws.endpointInterface(), false, type.getClassLoader());
      return sei.isAnnotationPresent(HandlerChain.class) ? sei : null;
    } catch (ClassNotFoundException e) {
      return null; // the endpoint reports its missing interface itself
    }
  }

  private static List<String> parse(URL url, String where) {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    try (InputStream stream = url.openStream()) {
      XMLStreamReader in = f.createXMLStreamReader(stream);
      try {
        in.nextTag();
        return read(in, where);
      } finally {
        in.close();
      }
    } catch (XMLStreamException e) {
      throw new WebServiceException(where + ": not well-formed XML (or a DTD, which is"
          + " refused): " + e.getMessage(), e);
    } catch (IOException e) {
      throw new WebServiceException(where + ": cannot read " + url + ": " + e.getMessage(), e);
    }
  }

  @SuppressWarnings("rawtypes")
  private static Handler make(String name, ClassLoader loader, String where) {
    try {
      Class<?> c = Class.forName(name, true, loader);
      if (!Handler.class.isAssignableFrom(c)) {
        throw new WebServiceException(where + ": " + name + " is not a"
            + " jakarta.xml.ws.handler.Handler");
      }
      return (Handler) c.getConstructor().newInstance();
    } catch (ClassNotFoundException e) {
      throw new WebServiceException(where + ": the handler " + name + " is not on the class"
          + " path", e);
    } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
      throw new WebServiceException(where + ": the handler " + name + " cannot be made (a"
          + " public class with a public constructor without parameters is needed)", e);
    } catch (InvocationTargetException e) {
      throw new WebServiceException(where + ": the constructor of the handler " + name
          + " failed: " + e.getCause(), e.getCause());
    }
  }
}
