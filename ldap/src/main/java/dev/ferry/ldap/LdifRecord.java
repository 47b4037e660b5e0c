package dev.ferry.ldap;

import java.util.List;
import java.util.Objects;

/**
 * One record of an LDIF file (RFC 2849): an entry's content, or a change to apply. Values are
 * {@link dev.ferry.bytes.ByteString}s, decoded from base64 where the file had them so; DNs are
 * text.
 *
 * <pre>{@code
 * LdifRecord r = new LdifRecord.Entry("cn=x,dc=example", List.of(Attribute.of("cn", "x")));
 * ProtocolOp.AddRequest add = (ProtocolOp.AddRequest) r.toRequest();
 * assert add.entry().equals("cn=x,dc=example");
 * }</pre>
 */
public sealed interface LdifRecord {

  /** Returns the DN the record is about. */
  String dn();

  /** Returns the controls of a change record (always empty for an {@link Entry}). */
  List<Control> controls();

  /** Returns the request that applies this record: an entry is added. */
  ProtocolOp toRequest();

  /** A content record: an entry and its attributes, values of one description merged. */
  record Entry(String dn, List<Attribute> attributes) implements LdifRecord {
    public Entry {
      Objects.requireNonNull(dn, "dn");
      attributes = FrozenList.trusted(attributes);
    }

    @Override
    public List<Control> controls() {
      return List.of();
    }

    /** Returns the first attribute with this description (ASCII case ignored), or null. */
    public Attribute attribute(String description) {
      for (Attribute a : attributes) {
        if (a.description().equalsIgnoreCase(description)) {
          return a;
        }
      }
      return null;
    }

    @Override
    public ProtocolOp.AddRequest toRequest() {
      return new ProtocolOp.AddRequest(dn, attributes);
    }
  }

  /** {@code changetype: add}. */
  record Add(String dn, List<Attribute> attributes, List<Control> controls)
      implements LdifRecord {
    public Add {
      Objects.requireNonNull(dn, "dn");
      attributes = FrozenList.trusted(attributes);
      controls = List.copyOf(controls);
    }

    @Override
    public ProtocolOp.AddRequest toRequest() {
      return new ProtocolOp.AddRequest(dn, attributes);
    }
  }

  /** {@code changetype: delete}. */
  record Delete(String dn, List<Control> controls) implements LdifRecord {
    public Delete {
      Objects.requireNonNull(dn, "dn");
      controls = List.copyOf(controls);
    }

    @Override
    public ProtocolOp.DeleteRequest toRequest() {
      return new ProtocolOp.DeleteRequest(dn);
    }
  }

  /** {@code changetype: modify}, with add, delete, replace and increment (RFC 4525) specs. */
  record Modify(String dn, List<Modification> modifications, List<Control> controls)
      implements LdifRecord {
    public Modify {
      Objects.requireNonNull(dn, "dn");
      modifications = List.copyOf(modifications);
      controls = List.copyOf(controls);
    }

    @Override
    public ProtocolOp.ModifyRequest toRequest() {
      return new ProtocolOp.ModifyRequest(dn, modifications);
    }
  }

  /** {@code changetype: moddn} (or {@code modrdn}); {@code newSuperior} may be null. */
  record ModifyDn(String dn, String newRdn, boolean deleteOldRdn, String newSuperior,
      List<Control> controls) implements LdifRecord {
    public ModifyDn {
      Objects.requireNonNull(dn, "dn");
      Objects.requireNonNull(newRdn, "newRdn");
      controls = List.copyOf(controls);
    }

    @Override
    public ProtocolOp.ModifyDnRequest toRequest() {
      return new ProtocolOp.ModifyDnRequest(dn, newRdn, deleteOldRdn, newSuperior);
    }
  }
}
