package dev.ferry.server;

import dev.ferry.soap.Addressing;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.SoapVersion;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * Chooses the {@link Endpoint} for a request: by WS-Addressing Action, else by SOAPAction (the
 * HTTP header of SOAP 1.1 or the {@code action} parameter of SOAP 1.2), else by the name of the
 * Body's first element, else the fallback. The body is only looked at when the actions did not
 * decide, and then only up to its first element.
 *
 * <p>A request whose Body a signature covers is dispatched on what was signed: by its wsa:Action
 * if the signature covers that too, else by its Body's first element, and an unsigned action
 * (wsa:Action or SOAPAction) that names another endpoint than the Body does, or names one where
 * the Body names none or several, is refused; so a signed Body cannot be sent to an operation
 * its signer did not mean. Operations that the Body does not tell apart (an empty Body, one
 * element for several operations) then need wsa:Action signed. Immutable and thread-safe.
 */
public final class Dispatcher {
  private final Map<String, Endpoint> byAction;
  private final Map<String, Endpoint> bySoapAction;
  private final Map<QName, Endpoint> byElement;
  private final Set<QName> sharedElements; // elements of more than one endpoint
  private final Endpoint fallback;
  private final Set<QName> understood;
  private final WsdlDocuments wsdl;
  private final MessageGuard guard;
  private final Set<SoapVersion> versions;
  private final String service;

  private Dispatcher(Builder b) {
    this.byAction = Map.copyOf(b.byAction);
    this.bySoapAction = Map.copyOf(b.bySoapAction);
    this.byElement = Map.copyOf(b.byElement);
    this.sharedElements = Set.copyOf(b.sharedElements);
    this.fallback = b.fallback;
    this.understood = new java.util.HashSet<>(b.understood);
    this.wsdl = b.wsdl;
    this.guard = b.guard;
    this.versions = java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(b.versions));
    this.service = b.service;
    if (guard != null) {
      understood.addAll(guard.understands());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the endpoint for {@code request}, or null if none matches.
   *
   * @param soapAction the SOAPAction value without quotes, or null
   */
  public Endpoint select(Message request, String soapAction) {
    String action = request.addressing().action();
    Endpoint e = action == null ? null : byAction.get(action);
    if (e == null && soapAction != null && !soapAction.isEmpty()) {
      e = bySoapAction.get(soapAction);
    }
    QName element = request.buffer().bodyElement();
    if (e == null && element != null) {
      e = byElement.get(element);
    }
    return e != null ? e : fallback;
  }

  /**
   * Returns the endpoint for {@code request} as its guard opened it: when a signature covers the
   * Body, chosen by what was signed (see the class's description).
   *
   * @param soapAction the SOAPAction value without quotes, or null
   * @param opened what the guard found, or null for a request no guard opened
   * @throws SoapFaultException with a Sender fault if an unsigned action would choose the
   *     endpoint of a signed request
   */
  public Endpoint select(Message request, String soapAction, MessageGuard.Opened opened)
      throws SoapFaultException {
    if (opened == null || !opened.bodyProtected()) {
      return select(request, soapAction);
    }
    String action = request.addressing().action();
    if (action != null && opened.protectedHeaders().contains(Addressing.ACTION)
        && byAction.containsKey(action)) {
      return byAction.get(action); // the signer chose it
    }
    Endpoint named = action == null ? null : byAction.get(action);
    if (named == null && soapAction != null && !soapAction.isEmpty()) {
      named = bySoapAction.get(soapAction);
    }
    QName element = request.buffer().bodyElement();
    Endpoint signed = element == null || sharedElements.contains(element) ? null
        : byElement.get(element);
    if (named != null && named != signed) {
      SoapVersion v = request.version();
      throw new SoapFaultException(Fault.of(v, v.senderFaultCode(), "the request's action"
          + " names an operation that its signed Body does not ("
          + (element == null ? "an empty Body" : "Body element " + element) + "): sign"
          + " wsa:Action, or send the action of the Body's operation"));
    }
    return signed != null ? signed : fallback;
  }

  /** Returns the header blocks the endpoints (and the guard) process (for mustUnderstand). */
  public Set<QName> understood() {
    return java.util.Collections.unmodifiableSet(understood);
  }

  /** Returns the SOAP versions the endpoints speak. */
  public Set<SoapVersion> versions() {
    return versions;
  }

  /** Whether the endpoints speak {@code version}. */
  public boolean accepts(SoapVersion version) {
    return versions.contains(version);
  }

  /** Returns the guard requests pass before dispatch and replies after, or null. */
  public MessageGuard guard() {
    return guard;
  }

  /**
   * Returns the service the endpoints belong to, as its WSDL names it (for spans:
   * {@code rpc.service}), or null for the namespace of each request's Body element.
   */
  public String service() {
    return service;
  }

  /** Returns the WSDL served at {@code ?wsdl} (as given, not rewritten), or null. */
  public String wsdl() {
    return wsdl == null ? null : wsdl.wsdl();
  }

  /** Returns the WSDL and the documents it imports, served at {@code ?wsdl}, or null. */
  public WsdlDocuments wsdlDocuments() {
    return wsdl;
  }

  /** Configures a {@link Dispatcher}. */
  public static final class Builder {
    private final Map<String, Endpoint> byAction = new HashMap<>();
    private final Map<String, Endpoint> bySoapAction = new HashMap<>();
    private final Map<QName, Endpoint> byElement = new HashMap<>();
    private final Set<QName> sharedElements = new HashSet<>();
    private final Set<QName> understood = new HashSet<>(Set.of(Addressing.TO, Addressing.ACTION,
        Addressing.MESSAGE_ID, Addressing.REPLY_TO, Addressing.FAULT_TO, Addressing.RELATES_TO,
        Addressing.FROM));
    private Endpoint fallback;
    private WsdlDocuments wsdl;
    private MessageGuard guard;
    private Set<SoapVersion> versions = java.util.EnumSet.allOf(SoapVersion.class);
    private String service;

    private Builder() {}

    /** The service's name, as its WSDL gives it, for spans (default: none; see service()). */
    public Builder service(String name) {
      this.service = name;
      return this;
    }

    /**
     * The SOAP versions the endpoints speak (default: both). An envelope of another version is
     * answered with a VersionMismatch fault, as is one whose media type names the other.
     */
    public Builder versions(SoapVersion... versions) {
      if (versions.length == 0) {
        throw new IllegalArgumentException("a dispatcher speaks at least one SOAP version");
      }
      this.versions = java.util.EnumSet.copyOf(java.util.Arrays.asList(versions));
      return this;
    }

    /**
     * Passes every request through {@code guard} before it is dispatched (such as WS-Security:
     * a request that fails its checks is answered with its fault and reaches no endpoint; an
     * encrypted one is dispatched decrypted) and every reply after (signed, encrypted). The
     * endpoint sees who the guard says sent the request as the HTTP request's user principal.
     */
    public Builder guard(MessageGuard guard) {
      this.guard = guard;
      return this;
    }

    /** Routes requests whose wsa:Action is {@code action}. */
    public Builder action(String action, Endpoint endpoint) {
      byAction.put(action, endpoint);
      return this;
    }

    /** Routes requests whose SOAPAction is {@code soapAction}. */
    public Builder soapAction(String soapAction, Endpoint endpoint) {
      bySoapAction.put(soapAction, endpoint);
      return this;
    }

    /** Routes requests whose Body's first element is {@code element}. */
    public Builder element(QName element, Endpoint endpoint) {
      Endpoint before = byElement.put(element, endpoint);
      if (before != null && before != endpoint) {
        sharedElements.add(element);
      }
      return this;
    }

    /** Handles requests nothing else matched. */
    public Builder fallback(Endpoint endpoint) {
      this.fallback = endpoint;
      return this;
    }

    /** Declares header blocks the endpoints process, so mustUnderstand="1" on them is fine. */
    public Builder understands(QName header) {
      understood.add(header);
      return this;
    }

    /**
     * Serves {@code wsdl} at {@code ?wsdl}; every {@code soap:address} / {@code soap12:address}
     * location is replaced by the URL the request came to.
     */
    public Builder wsdl(String wsdl) {
      this.wsdl = wsdl == null ? null : WsdlDocuments.of(wsdl);
      return this;
    }

    /**
     * Serves {@code documents}: the WSDL at {@code ?wsdl}, what it imports at {@code ?wsdl=KEY}
     * and {@code ?xsd=KEY}, every location pointing at the URL the request came to.
     */
    public Builder wsdl(WsdlDocuments documents) {
      this.wsdl = documents;
      return this;
    }

    public Dispatcher build() {
      return new Dispatcher(this);
    }
  }
}
