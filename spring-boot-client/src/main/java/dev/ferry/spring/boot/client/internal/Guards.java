package dev.ferry.spring.boot.client.internal;

import dev.ferry.soap.MessageGuard;
import dev.ferry.spring.boot.client.ClientProperties;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A client's WS-Security from its properties. Loaded only when a client asks for WS-Security,
 * so that applications without {@code ferry-wssecurity} never touch its classes.
 */
final class Guards {
  private Guards() {}

  static MessageGuard of(String name, ClientProperties.WsSecurity s) {
    WsSecurityPolicy.Builder outbound = WsSecurityPolicy.builder();
    WsSecurityCredentials.Builder credentials = WsSecurityCredentials.builder();
    if (s.getUsername() != null) {
      outbound.usernameToken(s.getPasswordType() == ClientProperties.PasswordType.TEXT
          ? WsSecurityPolicy.Password.TEXT : WsSecurityPolicy.Password.DIGEST);
      credentials.user(s.getUsername(),
          s.getPassword() == null ? new char[0] : s.getPassword().toCharArray());
    }
    if (s.getTimestamp() != null) {
      outbound.timestamp(s.getTimestamp());
    }
    try {
      return WsSecurity.builder().outbound(outbound.build()).credentials(credentials.build())
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException("ferry.clients." + name + ".ws-security: "
          + e.getMessage(), e);
    }
  }
}
