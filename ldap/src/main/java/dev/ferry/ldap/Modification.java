package dev.ferry.ldap;

import java.util.Objects;

/** One change of a modify request (RFC 4511 section 4.6; increment from RFC 4525). */
public record Modification(Type type, Attribute attribute) {

  /** The kind of change; the ordinal is the protocol value. */
  public enum Type { ADD, DELETE, REPLACE, INCREMENT }

  public Modification {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(attribute, "attribute");
  }
}
