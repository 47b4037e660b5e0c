package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import java.util.List;
import java.util.Objects;

/**
 * The protocolOp of an {@link LdapMessage}: one record per operation of RFC 4511 section 4.2 to
 * 4.14. Strings (DNs, attribute descriptions, OIDs) are decoded text; values, credentials and
 * extended values are {@link ByteString} slices of the received PDU.
 *
 * <p>Optional fields are {@code null} when absent; lists are never null.
 */
public sealed interface ProtocolOp {

  /** Returns the response whose result this is, or null for requests and result-less responses. */
  default LdapResult result() {
    return null;
  }

  /** The authentication choice of a bind request. */
  sealed interface Authentication {}

  /** Simple authentication: a password (empty for anonymous or unauthenticated binds). */
  record Simple(ByteString password) implements Authentication {
    public Simple {
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
      return "Simple[password=(" + password.size() + " bytes, not shown)]";
    }
  }

  /** SASL authentication: a mechanism and optional credentials. */
  record Sasl(String mechanism, ByteString credentials) implements Authentication {
    public Sasl {
      Objects.requireNonNull(mechanism, "mechanism");
    }
  }

  /** BindRequest, [APPLICATION 0]. */
  record BindRequest(int version, String name, Authentication authentication)
      implements ProtocolOp {
    public BindRequest {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(authentication, "authentication");
    }

    /** Returns an LDAPv3 simple bind. */
    public static BindRequest simple(String name, String password) {
      return new BindRequest(3, name, new Simple(ByteString.encodeUtf8(password)));
    }
  }

  /** BindResponse, [APPLICATION 1]; {@code serverSaslCredentials} may be null. */
  record BindResponse(LdapResult result, ByteString serverSaslCredentials)
      implements ProtocolOp {
    public BindResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** UnbindRequest, [APPLICATION 2]. */
  record UnbindRequest() implements ProtocolOp {}

  /** SearchRequest, [APPLICATION 3]. */
  record SearchRequest(String baseObject, SearchScope scope, DerefAliases derefAliases,
      int sizeLimit, int timeLimit, boolean typesOnly, Filter filter, List<String> attributes)
      implements ProtocolOp {
    public SearchRequest {
      Objects.requireNonNull(baseObject, "baseObject");
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(derefAliases, "derefAliases");
      Objects.requireNonNull(filter, "filter");
      attributes = List.copyOf(attributes);
    }

    /** Returns a search with no limits that never dereferences aliases. */
    public static SearchRequest of(String base, SearchScope scope, Filter filter,
        String... attributes) {
      return new SearchRequest(base, scope, DerefAliases.NEVER, 0, 0, false, filter,
          List.of(attributes));
    }
  }

  /** SearchResultEntry, [APPLICATION 4]. */
  record SearchResultEntry(String objectName, List<Attribute> attributes) implements ProtocolOp {
    public SearchResultEntry {
      Objects.requireNonNull(objectName, "objectName");
      attributes = FrozenList.trusted(attributes);
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
  }

  /** SearchResultReference, [APPLICATION 19]: at least one URI. */
  record SearchResultReference(List<String> uris) implements ProtocolOp {
    public SearchResultReference {
      uris = List.copyOf(uris);
    }
  }

  /** SearchResultDone, [APPLICATION 5]. */
  record SearchResultDone(LdapResult result) implements ProtocolOp {
    public SearchResultDone {
      Objects.requireNonNull(result, "result");
    }
  }

  /** ModifyRequest, [APPLICATION 6]. */
  record ModifyRequest(String object, List<Modification> changes) implements ProtocolOp {
    public ModifyRequest {
      Objects.requireNonNull(object, "object");
      changes = List.copyOf(changes);
    }
  }

  /** ModifyResponse, [APPLICATION 7]. */
  record ModifyResponse(LdapResult result) implements ProtocolOp {
    public ModifyResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** AddRequest, [APPLICATION 8]. */
  record AddRequest(String entry, List<Attribute> attributes) implements ProtocolOp {
    public AddRequest {
      Objects.requireNonNull(entry, "entry");
      attributes = FrozenList.trusted(attributes);
    }
  }

  /** AddResponse, [APPLICATION 9]. */
  record AddResponse(LdapResult result) implements ProtocolOp {
    public AddResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** DelRequest, [APPLICATION 10]: the DN itself is the element. */
  record DeleteRequest(String entry) implements ProtocolOp {
    public DeleteRequest {
      Objects.requireNonNull(entry, "entry");
    }
  }

  /** DelResponse, [APPLICATION 11]. */
  record DeleteResponse(LdapResult result) implements ProtocolOp {
    public DeleteResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** ModifyDNRequest, [APPLICATION 12]; {@code newSuperior} may be null. */
  record ModifyDnRequest(String entry, String newRdn, boolean deleteOldRdn, String newSuperior)
      implements ProtocolOp {
    public ModifyDnRequest {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(newRdn, "newRdn");
    }
  }

  /** ModifyDNResponse, [APPLICATION 13]. */
  record ModifyDnResponse(LdapResult result) implements ProtocolOp {
    public ModifyDnResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** CompareRequest, [APPLICATION 14]. */
  record CompareRequest(String entry, String attributeDescription, ByteString assertionValue)
      implements ProtocolOp {
    public CompareRequest {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(attributeDescription, "attributeDescription");
      Objects.requireNonNull(assertionValue, "assertionValue");
    }
  }

  /** CompareResponse, [APPLICATION 15]: compareTrue or compareFalse on success. */
  record CompareResponse(LdapResult result) implements ProtocolOp {
    public CompareResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** AbandonRequest, [APPLICATION 16]. */
  record AbandonRequest(int messageId) implements ProtocolOp {}

  /** ExtendedRequest, [APPLICATION 23]; {@code value} may be null. */
  record ExtendedRequest(String name, ByteString value) implements ProtocolOp {
    /** The StartTLS OID of RFC 4511 section 4.14.1. */
    public static final String START_TLS = "1.3.6.1.4.1.1466.20037";
    /** The "Who am I?" OID of RFC 4532. */
    public static final String WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";

    public ExtendedRequest {
      Objects.requireNonNull(name, "name");
    }
  }

  /** ExtendedResponse, [APPLICATION 24]; {@code name} and {@code value} may be null. */
  record ExtendedResponse(LdapResult result, String name, ByteString value)
      implements ProtocolOp {
    public ExtendedResponse {
      Objects.requireNonNull(result, "result");
    }
  }

  /** IntermediateResponse, [APPLICATION 25]; both fields may be null. */
  record IntermediateResponse(String name, ByteString value) implements ProtocolOp {}
}
