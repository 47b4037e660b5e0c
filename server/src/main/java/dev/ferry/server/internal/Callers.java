package dev.ferry.server.internal;

import dev.ferry.security.AuthenticationException;
import dev.ferry.security.Authenticator;
import dev.ferry.security.Identity;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.security.cert.X509Certificate;

/**
 * Who a server's caller is: authenticated by the server's {@link Authenticator}, refused with
 * 401 (and the challenge) or 403, and shown to endpoints as the request's user principal.
 */
public final class Callers {
  /** Where the servlet container puts the client's certificate chain. */
  private static final String CERTIFICATES = "jakarta.servlet.request.X509Certificate";

  private Callers() {}

  /**
   * Authenticates {@code request}: returns it with the caller's identity as its user principal,
   * or null after answering 401 (credentials missing or wrong, with the challenge) or 403 (no
   * certificate where only certificates are taken).
   */
  public static HttpServletRequest authenticate(Authenticator auth, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    X509Certificate[] peer = request.getAttribute(CERTIFICATES) instanceof X509Certificate[] c
        ? c : null;
    try {
      Identity who = auth.authenticate(request.getHeader("Authorization"), peer);
      return withPrincipal(request, who, who.method() == Identity.Method.BASIC
          ? HttpServletRequest.BASIC_AUTH : HttpServletRequest.CLIENT_CERT_AUTH);
    } catch (AuthenticationException e) {
      refuse(auth, response, e.getMessage());
      return null;
    }
  }

  private static void refuse(Authenticator auth, HttpServletResponse response, String why)
      throws IOException {
    String challenge = auth.challenge();
    int status = challenge == null ? HttpServletResponse.SC_FORBIDDEN
        : HttpServletResponse.SC_UNAUTHORIZED;
    if (challenge != null) {
      response.setHeader("WWW-Authenticate", challenge);
    }
    byte[] body = ("authentication failed: " + why + "\n").getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.setContentType("text/plain; charset=utf-8");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /**
   * {@code request} with {@code principal} as its user (its name the remote user) and, where it
   * is an {@link Identity}, its roles: a container's roles belong to the caller it
   * authenticated, not to this one.
   */
  public static HttpServletRequest withPrincipal(HttpServletRequest request, Principal principal,
      String authType) {
    return new HttpServletRequestWrapper(request) {
      @Override
      public Principal getUserPrincipal() {
        return principal;
      }

      @Override
      public String getRemoteUser() {
        return principal.getName();
      }

      @Override
      public String getAuthType() {
        return authType;
      }

      @Override
      public boolean isUserInRole(String role) {
        return principal instanceof Identity i && i.isInRole(role);
      }
    };
  }
}
