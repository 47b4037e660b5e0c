package dev.ferry.jaxws.internal;

import dev.ferry.jaxws.GuardFeature;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.xml.soap.MessageFactory;
import jakarta.xml.soap.SOAPConstants;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPFactory;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.handler.Handler;
import jakarta.xml.ws.soap.AddressingFeature;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The SOAP binding of an endpoint or a port: its SOAP version, MTOM setting, handler chain and
 * guard ({@link GuardFeature}). The chain and the MTOM setting may be changed (as JAX-WS
 * allows); each call reads them once, at its start.
 */
public final class SoapBindingImpl implements SOAPBinding {
  private final String bindingId;
  private final SoapVersion version;
  @SuppressWarnings("rawtypes")
  private volatile List<Handler> chain = List.of();
  private volatile Set<String> roles = Set.of();
  private volatile boolean mtom;
  private volatile int thresholdBytes;
  private final MessageGuard guard;
  private final AddressingFeature addressing;

  private SoapBindingImpl(String bindingId, boolean mtom, int thresholdBytes,
      MessageGuard guard, AddressingFeature addressing) {
    this.addressing = addressing;
    String id = bindingId == null ? SOAP11HTTP_BINDING : bindingId;
    this.version = versionOf(id);
    this.bindingId = id;
    this.mtom = mtom || id.equals(SOAP11HTTP_MTOM_BINDING) || id.equals(SOAP12HTTP_MTOM_BINDING);
    this.thresholdBytes = thresholdBytes;
    this.guard = guard;
  }

  /**
   * The binding {@code bindingId} names, with MTOM as {@code mtom} and {@code thresholdBytes}
   * say unless a feature says otherwise; of several features of one kind, the last counts.
   *
   * @throws WebServiceException for an enabled feature Ferry does not implement (it is refused,
   *     not ignored): any but MTOM, WS-Addressing with anonymous responses, the guard and the
   *     server's settings
   */
  public static SoapBindingImpl of(String bindingId, boolean mtom, int thresholdBytes,
      WebServiceFeature... features) {
    MessageGuard guard = null;
    AddressingFeature addressing = null;
    for (WebServiceFeature f : features) {
      if (f instanceof MTOMFeature m) {
        mtom = m.isEnabled();
        thresholdBytes = m.getThreshold();
      } else if (f instanceof GuardFeature g) {
        guard = g.guard();
      } else if (f instanceof AddressingFeature a) {
        addressing = a.isEnabled() ? supported(a) : null;
      } else if (f instanceof dev.ferry.jaxws.ServerFeature) {
        continue; // the endpoint's server's: taken where the endpoint is published
      } else if (f.isEnabled()) {
        throw new WebServiceException("Ferry does not implement the feature " + f.getID() + " ("
            + f.getClass().getName() + "): remove it or disable it");
      }
    }
    return new SoapBindingImpl(bindingId, mtom, thresholdBytes, guard, addressing);
  }

  /**
   * {@code features} after those an implementation's annotations ask for ({@code @Addressing},
   * {@code @RespectBinding}), so that a feature given in code overrides its annotation.
   */
  public static WebServiceFeature[] withAnnotations(Class<?> implementation,
      WebServiceFeature... features) {
    List<WebServiceFeature> all = new ArrayList<>();
    jakarta.xml.ws.soap.Addressing a =
        implementation.getAnnotation(jakarta.xml.ws.soap.Addressing.class);
    if (a != null) {
      all.add(new AddressingFeature(a.enabled(), a.required(), a.responses()));
    }
    jakarta.xml.ws.RespectBinding rb = implementation.getAnnotation(
        jakarta.xml.ws.RespectBinding.class);
    if (rb != null) {
      all.add(new jakarta.xml.ws.RespectBindingFeature(rb.enabled()));
    }
    all.addAll(List.of(features));
    return all.toArray(new WebServiceFeature[0]);
  }

  /** WS-Addressing as Ferry serves it: replies on the back channel only. */
  private static AddressingFeature supported(AddressingFeature a) {
    if (a.getResponses() == AddressingFeature.Responses.NON_ANONYMOUS) {
      throw new WebServiceException("AddressingFeature with NON_ANONYMOUS responses is not"
          + " supported: Ferry answers on the request's connection (anonymous responses) only");
    }
    return a;
  }

  /** The WS-Addressing feature in force (enabled), or null. */
  public AddressingFeature addressing() {
    return addressing;
  }

  /** The SOAP version a binding ID names; the XML/HTTP binding is not supported. */
  public static SoapVersion versionOf(String bindingId) {
    return switch (bindingId) {
      case SOAP11HTTP_BINDING, SOAP11HTTP_MTOM_BINDING -> SoapVersion.SOAP_11;
      case SOAP12HTTP_BINDING, SOAP12HTTP_MTOM_BINDING, SOAPConstants.SOAP_1_2_PROTOCOL ->
          SoapVersion.SOAP_12;
      default -> throw new WebServiceException("binding " + bindingId + " is not supported"
          + " (expected SOAP 1.1 or 1.2 over HTTP)");
    };
  }

  public SoapVersion version() {
    return version;
  }

  /** The MTOM policy of messages this binding sends. */
  public MtomPolicy policy() {
    return mtom ? MtomPolicy.threshold(thresholdBytes) : MtomPolicy.NEVER;
  }

  /** The guard messages pass (such as WS-Security), or null. */
  public MessageGuard guard() {
    return guard;
  }

  public void setThreshold(int bytes) {
    this.thresholdBytes = bytes;
  }

  @Override
  @SuppressWarnings("rawtypes")
  public List<Handler> getHandlerChain() {
    return new ArrayList<>(chain);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public void setHandlerChain(List<Handler> chain) {
    this.chain = chain == null ? List.of() : List.copyOf(chain);
  }

  /** The chain as it is now, not copied. */
  @SuppressWarnings("rawtypes")
  public List<Handler> chain() {
    return chain;
  }

  @Override
  public String getBindingID() {
    return bindingId;
  }

  @Override
  public Set<String> getRoles() {
    return roles;
  }

  @Override
  public void setRoles(Set<String> roles) {
    this.roles = roles == null ? Set.of() : Set.copyOf(roles);
  }

  @Override
  public boolean isMTOMEnabled() {
    return mtom;
  }

  @Override
  public void setMTOMEnabled(boolean flag) {
    this.mtom = flag;
  }

  @Override
  public SOAPFactory getSOAPFactory() {
    try {
      return SOAPFactory.newInstance(protocol());
    } catch (SOAPException e) {
      throw new WebServiceException(e);
    }
  }

  @Override
  public MessageFactory getMessageFactory() {
    try {
      return MessageFactory.newInstance(protocol());
    } catch (SOAPException e) {
      throw new WebServiceException(e);
    }
  }

  private String protocol() {
    return version == SoapVersion.SOAP_11 ? SOAPConstants.SOAP_1_1_PROTOCOL
        : SOAPConstants.SOAP_1_2_PROTOCOL;
  }
}
