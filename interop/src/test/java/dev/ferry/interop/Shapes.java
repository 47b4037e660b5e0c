package dev.ferry.interop;

import jakarta.jws.Oneway;
import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.jws.soap.SOAPBinding;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebFault;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.List;

/**
 * Code-first services, one per group of SEI shapes, for the WSDL differential test: each method
 * is one shape (primitives and their wrappers, arrays and lists, beans with enums, inheritance
 * and {@code @XmlElement(required, nillable)}, faults with several properties, header
 * parameters, Holders, one-way, RPC and bare). The bodies do nothing useful: only the WSDL the
 * runtimes derive from the signatures is compared.
 */
final class Shapes {
  static final String NS = "urn:ferry:shapes";

  private Shapes() {}

  /** The services, each published by every runtime. */
  static List<Object> all() {
    return List.of(new Primitives(), new Collections(), new Beans(), new Faults(),
        new Headers(), new Rpc(), new Bare());
  }

  @WebService(targetNamespace = NS)
  public static class Primitives {
    public int addInts(int a, int b) {
      return a + b;
    }

    public long widen(long a, short b, byte c) {
      return a + b + c;
    }

    public boolean flip(boolean b, char c) {
      return !b;
    }

    public double scale(double d, float f) {
      return d * f;
    }

    public Integer boxed(Integer i, Long l, Boolean b, Double d) {
      return i;
    }

    public String text(String s) {
      return s;
    }

    public BigDecimal money(BigDecimal amount, BigInteger count) {
      return amount;
    }

    public Date when(Date d) {
      return d;
    }

    public byte[] bytes(byte[] data) {
      return data;
    }

    public void nothing() {}
  }

  @WebService(targetNamespace = NS)
  public static class Collections {
    public String[] reverse(String[] items) {
      return items;
    }

    public List<Integer> sorted(List<Integer> numbers) {
      return numbers;
    }

    public int[] squares(int[] numbers) {
      return numbers;
    }

    public List<Item> items(List<Item> items) {
      return items;
    }
  }

  @WebService(targetNamespace = NS)
  public static class Beans {
    public Item copy(Item item) {
      return item;
    }

    public Color next(Color c) {
      return c;
    }

    public double area(Shape s) {
      return 0;
    }

    public Order place(Order o) {
      return o;
    }
  }

  @WebService(targetNamespace = NS)
  public static class Faults {
    public void reserve(String sku, int quantity) throws OutOfStock {
      throw new OutOfStock("none", sku, 0);
    }

    public String lookup(String key) throws NotFound, Denied {
      throw new NotFound("no " + key, key);
    }
  }

  @WebService(targetNamespace = NS)
  public static class Headers {
    public String tenantEcho(@WebParam(name = "tenant", header = true) String tenant,
        @WebParam(name = "body") String body) {
      return tenant + body;
    }

    public void swap(@WebParam(name = "a", mode = WebParam.Mode.INOUT) Holder<String> a,
        @WebParam(name = "length", mode = WebParam.Mode.OUT) Holder<Integer> length) {
      length.value = a.value.length();
    }

    @WebResult(name = "total")
    public long count(@WebParam(name = "items") List<String> items) {
      return items.size();
    }

    @Oneway
    public void log(@WebParam(name = "line") String line) {}
  }

  @WebService(targetNamespace = NS)
  @SOAPBinding(style = SOAPBinding.Style.RPC)
  public static class Rpc {
    public int sum(int a, int b) {
      return a + b;
    }

    public Item find(String name) {
      return null;
    }

    public String[] split(String s) {
      return s.split(",");
    }
  }

  @WebService(targetNamespace = NS)
  @SOAPBinding(parameterStyle = SOAPBinding.ParameterStyle.BARE)
  public static class Bare {
    public Item store(Item item) {
      return item;
    }

    public Order confirm(Order order) {
      return order;
    }
  }

  /** A bean with a list and an enum. */
  public static class Item {
    public String name;
    public int quantity;
    public List<String> tags;
    public Color color;
  }

  public enum Color { RED, GREEN, BLUE }

  /** A base class and two kinds of it. */
  @XmlSeeAlso({Circle.class, Square.class})
  public abstract static class Shape {
    public String label;
  }

  public static class Circle extends Shape {
    public double radius;
  }

  public static class Square extends Shape {
    public double side;
  }

  /** Properties required, nillable, both, and an attribute. */
  public static class Order {
    @XmlElement(required = true)
    public String id;
    @XmlElement(nillable = true)
    public String note;
    @XmlElement(required = true, nillable = true)
    public Integer priority;
    @XmlAttribute
    public String channel;
  }

  /**
   * A code-first fault with two properties besides its message, with the (String) constructor
   * and setters CXF's and Metro's clients make it with.
   */
  public static class OutOfStock extends Exception {
    private String sku;
    private int available;

    public OutOfStock(String message) {
      super(message);
    }

    public OutOfStock(String message, String sku, int available) {
      super(message);
      this.sku = sku;
      this.available = available;
    }

    public String getSku() {
      return sku;
    }

    public void setSku(String sku) {
      this.sku = sku;
    }

    public int getAvailable() {
      return available;
    }

    public void setAvailable(int available) {
      this.available = available;
    }
  }

  /** A code-first fault with one property. */
  public static class NotFound extends Exception {
    private final String key;

    public NotFound(String message, String key) {
      super(message);
      this.key = key;
    }

    public String getKey() {
      return key;
    }
  }

  /** A fault as wsimport writes one: a bean behind getFaultInfo. */
  @WebFault(name = "denied", targetNamespace = NS)
  public static class Denied extends Exception {
    private final DeniedInfo info;

    public Denied(String message, DeniedInfo info) {
      super(message);
      this.info = info;
    }

    public DeniedInfo getFaultInfo() {
      return info;
    }
  }

  public static class DeniedInfo {
    public String who;
    public int level;
  }
}
