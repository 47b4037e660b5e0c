package dev.ferry.jaxws.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.MessageContext.Scope;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

class MessageContextImplTest {
  private static final QName SERVICE = new QName("urn:t", "S");

  @Test
  void theRuntimesPropertiesAreOfApplicationScopeAndAHandlersOfHandlerScope() {
    MessageContextImpl c = MessageContextImpl.inbound(null, SERVICE, null, null, null);
    assertThat(c.getScope(MessageContext.WSDL_SERVICE)).isEqualTo(Scope.APPLICATION);
    c.put("handler.note", "x");
    assertThat(c.getScope("handler.note")).isEqualTo(Scope.HANDLER);
    c.put(MessageContext.WSDL_SERVICE, SERVICE); // put again: keeps its scope
    assertThat(c.getScope(MessageContext.WSDL_SERVICE)).isEqualTo(Scope.APPLICATION);
    assertThat(c.applicationScope()).containsKey(MessageContext.WSDL_SERVICE)
        .doesNotContainKey("handler.note");

    c.setScope("handler.note", Scope.APPLICATION);
    assertThat(c.getScope("handler.note")).isEqualTo(Scope.APPLICATION);
    assertThat(c.applicationScope()).containsEntry("handler.note", "x");
    c.setScope(MessageContext.WSDL_SERVICE, Scope.HANDLER);
    assertThat(c.applicationScope()).doesNotContainKey(MessageContext.WSDL_SERVICE);

    assertThatThrownBy(() -> c.getScope("absent")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.setScope("absent", Scope.HANDLER))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theRequestHeadersAreAReadOnlyViewReadCaseInsensitivelyWhenAskedFor() {
    List<String> reads = new ArrayList<>();
    HttpServletRequest http = (HttpServletRequest) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) -> {
          reads.add(method.getName() + (args == null ? "" : " " + args[0]));
          return switch (method.getName()) {
            case "getHeaderNames" -> Collections.enumeration(List.of("X-Tenant", "Accept"));
            case "getHeaders" -> Collections.enumeration(
                ((String) args[0]).equalsIgnoreCase("accept")
                    ? List.of("text/xml", "application/soap+xml")
                    : ((String) args[0]).equalsIgnoreCase("x-tenant") ? List.of("t-7")
                    : List.of());
            case "getHeader" -> ((String) args[0]).equalsIgnoreCase("accept") ? "text/xml"
                : ((String) args[0]).equalsIgnoreCase("x-tenant") ? "t-7" : null;
            default -> null;
          };
        });
    MessageContextImpl c = MessageContextImpl.inbound(http, SERVICE, null, null, null);
    assertThat(reads).as("no header read before one is asked for")
        .noneMatch(r -> r.startsWith("getHeader"));
    @SuppressWarnings("unchecked")
    Map<String, List<String>> headers =
        (Map<String, List<String>>) c.get(MessageContext.HTTP_REQUEST_HEADERS);

    reads.clear();
    assertThat(headers.get("x-tenant")).containsExactly("t-7");
    assertThat(reads).as("one header looked up reads that header only")
        .containsExactly("getHeaders x-tenant");
    assertThat(headers.get("ACCEPT")).containsExactly("text/xml", "application/soap+xml");
    assertThat(headers.get("Absent")).isNull();
    assertThat(headers.get(42)).isNull();
    assertThat(headers.containsKey("accept")).isTrue();
    assertThat(headers.containsKey("absent")).isFalse();
    assertThat(headers).containsOnlyKeys("X-Tenant", "Accept").hasSize(2);
    assertThat(headers).isEqualTo(Map.of("X-Tenant", List.of("t-7"),
        "Accept", List.of("text/xml", "application/soap+xml")));

    reads.clear();
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      e.getKey();
    }
    assertThat(reads).as("walking the names reads no values").containsExactly("getHeaderNames");

    assertThatThrownBy(() -> headers.put("X-New", List.of("v")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> headers.get("Accept").add("v"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> headers.entrySet().iterator().next().setValue(List.of()))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(headers::clear).isInstanceOf(UnsupportedOperationException.class);
  }
}
