package dev.ferry.jaxws.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.MessageContext.Scope;
import java.lang.reflect.Proxy;
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
  void theRequestHeadersAreReadCaseInsensitivelyWhenAskedFor() {
    int[] reads = {0};
    HttpServletRequest http = (HttpServletRequest) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "getHeaderNames" -> {
            reads[0]++;
            yield Collections.enumeration(List.of("X-Tenant", "Accept"));
          }
          case "getHeaders" -> Collections.enumeration(
              args[0].equals("Accept") ? List.of("text/xml", "application/soap+xml")
                  : List.of("t-7"));
          default -> null;
        });
    MessageContextImpl c = MessageContextImpl.inbound(http, SERVICE, null, null, null);
    assertThat(reads[0]).as("nothing read before it is asked for").isZero();
    @SuppressWarnings("unchecked")
    Map<String, List<String>> headers =
        (Map<String, List<String>>) c.get(MessageContext.HTTP_REQUEST_HEADERS);
    assertThat(headers.get("x-tenant")).containsExactly("t-7");
    assertThat(headers.get("ACCEPT")).containsExactly("text/xml", "application/soap+xml");
    assertThat(headers).containsOnlyKeys("X-Tenant", "Accept");
    assertThat(reads[0]).isEqualTo(1);
  }
}
