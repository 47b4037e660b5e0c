package dev.ferry.ldap.server;

import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.LdapLimits;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.BindRequest;
import dev.ferry.ldap.ProtocolOp.BindResponse;
import dev.ferry.ldap.ProtocolOp.ExtendedRequest;
import dev.ferry.ldap.ProtocolOp.ExtendedResponse;
import dev.ferry.ldap.ResultCode;
import java.io.IOException;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;

/**
 * The requests a connection answers with one response: bind (simple and SASL EXTERNAL), the
 * updates and compare with their access checks, and the extended operations Who am I? (RFC
 * 4532) and password modify (RFC 3062). Each returns the response operation; failures are
 * results, never exceptions, so the connection goes on.
 */
final class Operations {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Dsa dsa;
  private final Connection connection;

  Operations(Dsa dsa, Connection connection) {
    this.dsa = dsa;
    this.connection = connection;
  }

  /** Returns unavailableCriticalExtension for a critical control this server does not know. */
  LdapResult checkControls(List<Control> controls, boolean search) {
    for (Control c : controls) {
      boolean known = (search && Connection.isSearchControl(c))
          || Control.MANAGE_DSA_IT.equals(c.oid());
      if (c.critical() && !known) {
        return LdapResult.of(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, "critical control "
            + c.oid() + " is not supported");
      }
    }
    return null;
  }

  // --- bind ------------------------------------------------------------------------------------

  BindResponse bind(BindRequest b) {
    connection.bound("", ""); // a bind starts anonymous, and stays so if it fails
    try {
      if (b.version() != 3) {
        throw new OperationException(ResultCode.PROTOCOL_ERROR, "requested protocol version "
            + b.version() + " is not supported (expected: 3)");
      }
      switch (b.authentication()) {
        case ProtocolOp.Simple s -> simple(b.name(), s.password());
        case ProtocolOp.Sasl s -> sasl(s);
      }
      return new BindResponse(LdapResult.of(ResultCode.SUCCESS), null);
    } catch (OperationException e) {
      return new BindResponse(e.result, null);
    } catch (StoreException e) {
      return new BindResponse(storeFailure(e), null);
    }
  }

  private void simple(String name, ByteString password) throws OperationException {
    if (name.isEmpty()) {
      if (password.size() > 0) {
        throw new OperationException(ResultCode.INVALID_CREDENTIALS, "anonymous bind with a"
            + " password");
      }
      return;
    }
    if (password.size() == 0) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "unauthenticated bind"
          + " (DN with no password) disallowed");
    }
    Dn dn;
    try {
      dn = Dn.parse(name);
    } catch (IllegalArgumentException e) {
      throw new OperationException(ResultCode.INVALID_DN_SYNTAX, "invalid DN: " + name);
    }
    String key = dsa.schema.normalize(dn);
    String boundDn = null;
    ByteString[] stored = null;
    if (key.equals(dsa.rootKey) && dsa.rootPassword != null) {
      boundDn = dsa.rootDn;
      stored = new ByteString[] {dsa.rootPassword};
    } else {
      try (Directory.View v = dsa.directory.read()) {
        StoredEntry e = v.get(key);
        StoredAttribute pw = e == null ? null : e.attribute(dsa.schema.type("userPassword"));
        if (pw != null) {
          boundDn = e.dnText();
          stored = pw.values(); // held in memory of their own: the hash runs after the read
        }
      }
    }
    // An unknown DN costs a hash too: a bind's time must not tell which users exist.
    if (stored == null) {
      dsa.passwords.checkAgainstNothing(password);
    }
    if (stored == null || !dsa.passwords.matches(password, stored)) {
      throw new OperationException(ResultCode.INVALID_CREDENTIALS, "invalid credentials");
    }
    connection.bound(boundDn, key);
  }

  /** SASL EXTERNAL (RFC 4422 appendix A): the identity of the TLS client certificate. */
  private void sasl(ProtocolOp.Sasl s) throws OperationException {
    if (!"EXTERNAL".equals(s.mechanism())) {
      throw new OperationException(ResultCode.AUTH_METHOD_NOT_SUPPORTED, "SASL mechanism "
          + s.mechanism() + " is not supported (expected: EXTERNAL)");
    }
    SSLSocket tls = connection.tls();
    X509Certificate cert = tls == null ? null : clientCertificate(tls);
    if (cert == null) {
      throw new OperationException(ResultCode.INAPPROPRIATE_AUTHENTICATION, "SASL EXTERNAL"
          + " needs TLS with a client certificate");
    }
    String mapped = dsa.certificateMapper.apply(cert);
    Dn dn;
    try {
      dn = Dn.parse(mapped);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new OperationException(ResultCode.INVALID_CREDENTIALS, "certificate maps to no DN");
    }
    String key = dsa.schema.normalize(dn);
    String entryDn;
    try (Directory.View v = dsa.directory.read()) {
      StoredEntry e = v.get(key);
      entryDn = e == null ? null : e.dnText();
    }
    if (entryDn == null && !key.equals(dsa.rootKey)) {
      throw new OperationException(ResultCode.INVALID_CREDENTIALS, "no entry for "
          + "the certificate's identity " + dn);
    }
    String requested = s.credentials() == null ? "" : s.credentials().utf8();
    if (!requested.isEmpty() && !requested.equalsIgnoreCase("dn:" + dn)) {
      throw new OperationException(ResultCode.INAPPROPRIATE_AUTHENTICATION, "authorization"
          + " identity " + requested + " is not the certificate's");
    }
    connection.bound(entryDn != null ? entryDn : dsa.rootDn, key);
  }

  private static X509Certificate clientCertificate(SSLSocket tls) {
    try {
      Certificate[] chain = tls.getSession().getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
  }

  // --- updates and compare ---------------------------------------------------------------------

  /** Performs an add, delete, modify, modify DN or compare; returns its response. */
  ProtocolOp update(LdapMessage m) {
    ProtocolOp op = m.op();
    LdapResult result;
    try {
      LdapResult refused = checkControls(m.controls(), false);
      if (refused != null) {
        return response(op, refused);
      }
      if (dsa.readOnly && !(op instanceof ProtocolOp.CompareRequest)) {
        throw readOnly();
      }
      result = perform(op);
    } catch (OperationException e) {
      result = e.result;
    } catch (StoreException e) {
      result = storeFailure(e);
    }
    return response(op, result);
  }

  /**
   * Performs one operation in the order that leaks nothing: an entry the client may not read
   * answers as a missing one would (noSuchObject, the matched DN no nearer than what it may
   * read); only then is a change it may not make refused (insufficientAccessRights).
   */
  private LdapResult perform(ProtocolOp op) throws OperationException {
    String by = connection.boundDn();
    Predicate<StoredEntry> visible = connection::canSee;
    switch (op) {
      case ProtocolOp.AddRequest a -> {
        requireWrite(Updates.parseDn(a.entry()));
        dsa.updates.add(a.entry(), a.attributes(), by, false, visible);
      }
      case ProtocolOp.DeleteRequest d -> {
        requireWrite(visibleDn(d.entry(), connection::canSee));
        dsa.updates.delete(d.entry(), visible);
      }
      case ProtocolOp.ModifyRequest mod -> {
        Predicate<StoredEntry> orSelf = this::selfOrVisible;
        Dn dn = visibleDn(mod.object(), orSelf);
        if (!isSelf(dn) || !onlyPasswords(mod.changes())) { // users change their own password
          requireWrite(dn);
        }
        dsa.updates.modify(mod.object(), mod.changes(), by, orSelf);
      }
      case ProtocolOp.ModifyDnRequest r -> {
        Dn old = visibleDn(r.entry(), connection::canSee);
        requireWrite(old);
        Dn parent = r.newSuperior() != null ? Updates.parseDn(r.newSuperior())
            : old.rdns().size() > 1 ? old.parent() : Dn.ROOT;
        requireWrite(parent.child(Updates.parseDn(r.newRdn()).rdns().get(0)));
        dsa.updates.modifyDn(r.entry(), r.newRdn(), r.deleteOldRdn(), r.newSuperior(), by,
            visible);
      }
      case ProtocolOp.CompareRequest c -> {
        boolean match = dsa.updates.compare(c.entry(), c.attributeDescription(),
            c.assertionValue(), visible, connection::canSeeSecrets);
        return LdapResult.of(match ? ResultCode.COMPARE_TRUE : ResultCode.COMPARE_FALSE);
      }
      default -> throw new IllegalArgumentException("not an update: " + op);
    }
    return LdapResult.of(ResultCode.SUCCESS);
  }

  private boolean isSelf(StoredEntry e) {
    return e.key.equals(connection.boundKey());
  }

  private boolean isSelf(Dn dn) {
    return dsa.schema.normalize(dn).equals(connection.boundKey());
  }

  private boolean selfOrVisible(StoredEntry e) {
    return isSelf(e) || connection.canSee(e);
  }

  private boolean onlyPasswords(List<Modification> changes) throws OperationException {
    for (Modification m : changes) {
      if (!dsa.factory.type(m.attribute().description()).secret) {
        return false;
      }
    }
    return !changes.isEmpty();
  }

  /** Returns the entry's DN if the client may see it; noSuchObject as for a missing one if not. */
  private Dn visibleDn(String dnText, Predicate<StoredEntry> visible)
      throws OperationException {
    try (Directory.View v = dsa.directory.read()) {
      return v.visible(Updates.parseDn(dnText), visible).dn();
    }
  }

  private void requireWrite(Dn dn) throws OperationException {
    if (!dsa.access.canWrite(connection.boundKey(), dsa.schema.normalize(dn))) {
      throw new OperationException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, "no write access to "
          + dn);
    }
  }

  /** A store that failed: the change was not applied; its cause named, not its classes. */
  static LdapResult storeFailure(StoreException e) {
    return LdapResult.of(e.refused ? ResultCode.UNWILLING_TO_PERFORM : ResultCode.OTHER,
        e.getMessage());
  }

  private static ProtocolOp response(ProtocolOp request, LdapResult r) {
    return switch (request) {
      case ProtocolOp.AddRequest a -> new ProtocolOp.AddResponse(r);
      case ProtocolOp.DeleteRequest d -> new ProtocolOp.DeleteResponse(r);
      case ProtocolOp.ModifyRequest m -> new ProtocolOp.ModifyResponse(r);
      case ProtocolOp.ModifyDnRequest m -> new ProtocolOp.ModifyDnResponse(r);
      case ProtocolOp.CompareRequest c -> new ProtocolOp.CompareResponse(r);
      default -> throw new IllegalArgumentException("no response for " + request);
    };
  }

  // --- extended operations ---------------------------------------------------------------------

  ExtendedResponse extended(ExtendedRequest e) {
    try {
      return switch (e.name()) {
        case ExtendedRequest.WHO_AM_I -> new ExtendedResponse(LdapResult.of(ResultCode.SUCCESS),
            null, ByteString.encodeUtf8(connection.boundDn().isEmpty() ? ""
                : "dn:" + connection.boundDn()));
        case Dsa.PASSWORD_MODIFY -> passwordModify(e.value());
        default -> throw new OperationException(ResultCode.PROTOCOL_ERROR,
            "unsupported extended operation " + e.name());
      };
    } catch (OperationException x) {
      return new ExtendedResponse(x.result, null, null);
    } catch (StoreException x) {
      return new ExtendedResponse(storeFailure(x), null, null);
    }
  }

  /**
   * Password modify (RFC 3062): a bound client changes its own password, or another's it may
   * write; the old password, if given, must match; without a new one the server makes one
   * and returns it. The new password is stored hashed in the server's {@link PasswordScheme}.
   */
  private static OperationException readOnly() {
    return new OperationException(ResultCode.UNWILLING_TO_PERFORM, "this directory is"
        + " read-only");
  }

  private ExtendedResponse passwordModify(ByteString value) throws OperationException {
    if (dsa.readOnly) {
      throw readOnly();
    }
    if (connection.boundKey().isEmpty()) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "only authenticated users"
          + " may change passwords");
    }
    PasswordModifyRequest r = PasswordModifyRequest.decode(value, dsa.limits.ldap());
    String target = r.user() != null ? r.user() : connection.boundDn();
    if (target.regionMatches(true, 0, "dn:", 0, 3)) {
      target = target.substring(3);
    }
    Dn dn = Updates.parseDn(target);
    Predicate<StoredEntry> visible = this::selfOrVisible;
    String entryDn;
    ByteString[] old;
    try (Directory.View v = dsa.directory.read()) {
      StoredEntry e = v.visible(dn, visible); // a hidden user is a missing one
      if (!isSelf(e)) {
        requireWrite(e.dn());
      }
      entryDn = e.dnText();
      StoredAttribute pw = e.attribute(dsa.schema.type("userPassword"));
      old = pw == null ? null : pw.values();
    }
    if (r.oldPassword() != null
        && (old == null || !dsa.passwords.matches(r.oldPassword(), old))) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "old password does not"
          + " match");
    }
    ByteString generated = r.newPassword() == null ? generate() : null;
    ByteString password = generated != null ? generated : r.newPassword();
    dsa.updates.modify(entryDn, List.of(new Modification(Modification.Type.REPLACE,
        new dev.ferry.ldap.Attribute("userPassword", List.of(dsa.passwords.hash(password))))),
        connection.boundDn(), visible);
    ByteString response = generated == null ? null : encodeGenerated(generated);
    return new ExtendedResponse(LdapResult.of(ResultCode.SUCCESS), null, response);
  }

  private static ByteString generate() {
    byte[] b = new byte[12];
    RANDOM.nextBytes(b);
    return ByteString.encodeUtf8(Base64.getUrlEncoder().withoutPadding().encodeToString(b));
  }

  private static ByteString encodeGenerated(ByteString password) {
    try {
      return BerWriter.encode(w -> {
        w.writeStartSequence();
        w.writeOctetString(0x80, password);
        w.writeEndSequence();
      });
    } catch (IOException e) {
      throw new IllegalStateException("encoding into memory does not fail", e);
    }
  }

  /** The request value of RFC 3062: three optional octet strings. */
  record PasswordModifyRequest(String user, ByteString oldPassword, ByteString newPassword) {
    static PasswordModifyRequest decode(ByteString value, LdapLimits limits)
        throws OperationException {
      if (value == null) {
        return new PasswordModifyRequest(null, null, null);
      }
      try {
        BerReader r = BerReader.of(value, BerRules.LDAP, limits.ber());
        r.readStartSequence();
        String user = null;
        ByteString old = null;
        ByteString fresh = null;
        while (r.hasNextElement()) {
          switch (r.peekType()) {
            case 0x80 -> user = r.readOctetString(0x80).utf8();
            case 0x81 -> old = r.readOctetString(0x81);
            case 0x82 -> fresh = r.readOctetString(0x82);
            default -> throw new OperationException(ResultCode.PROTOCOL_ERROR,
                "unexpected element in the password modify request");
          }
        }
        r.readEndSequence();
        return new PasswordModifyRequest(user, old, fresh);
      } catch (IOException e) {
        throw new OperationException(ResultCode.PROTOCOL_ERROR, "password modify request: "
            + e.getMessage());
      }
    }
  }
}
