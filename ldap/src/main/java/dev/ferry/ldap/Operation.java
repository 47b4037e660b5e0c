package dev.ferry.ldap;

import dev.ferry.ldap.ProtocolOp.AddRequest;
import dev.ferry.ldap.ProtocolOp.BindRequest;
import dev.ferry.ldap.ProtocolOp.CompareRequest;
import dev.ferry.ldap.ProtocolOp.DeleteRequest;
import dev.ferry.ldap.ProtocolOp.ExtendedRequest;
import dev.ferry.ldap.ProtocolOp.ModifyDnRequest;
import dev.ferry.ldap.ProtocolOp.ModifyRequest;
import dev.ferry.ldap.ProtocolOp.SearchRequest;

/**
 * What a request asks for, in the words an error names it by: the operation and the entry it
 * targets ({@code null} for operations that name none, such as extended operations).
 */
record Operation(String name, String dn) {

  /** Returns the operation {@code request} performs. */
  static Operation of(ProtocolOp request) {
    return switch (request) {
      case BindRequest b when b.authentication() instanceof ProtocolOp.Sasl s ->
          new Operation("SASL bind " + s.mechanism(), b.name().isEmpty() ? null : b.name());
      case BindRequest b -> new Operation("bind", b.name());
      case SearchRequest s -> new Operation("search", s.baseObject());
      case ModifyRequest m -> new Operation("modify", m.object());
      case AddRequest a -> new Operation("add", a.entry());
      case DeleteRequest d -> new Operation("delete", d.entry());
      case ModifyDnRequest m -> new Operation("modifyDN", m.entry());
      case CompareRequest c -> new Operation("compare", c.entry());
      case ExtendedRequest e when e.name().equals(ExtendedRequest.START_TLS) ->
          new Operation("StartTLS", null);
      case ExtendedRequest e -> new Operation("extended operation " + e.name(), null);
      default -> new Operation(request.getClass().getSimpleName(), null);
    };
  }

  /** Returns {@code name "dn"}, or the name alone. */
  @Override
  public String toString() {
    return dn == null ? name : name + " \"" + dn + "\"";
  }
}
