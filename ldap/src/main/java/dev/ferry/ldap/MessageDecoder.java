package dev.ferry.ldap;

import dev.ferry.asn1.BerException;
import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerStrings;
import dev.ferry.asn1.BerTags;
import dev.ferry.bytes.ByteSequenceReader;
import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one LDAPMessage with a {@link BerReader} under {@link BerRules#LDAP}; one method per RFC
 * 4511 production. Errors carry the context {@code message <id> > <op>}.
 */
final class MessageDecoder {
  /** Attribute descriptions repeat in every entry: shared, lock-free, bounded (see BerStrings). */
  private static final BerStrings DESCRIPTIONS = new BerStrings();
  private static final SearchScope[] SCOPES = SearchScope.values();
  private static final DerefAliases[] DEREFS = DerefAliases.values();
  private static final Modification.Type[] CHANGE_TYPES = Modification.Type.values();

  private final BerReader r;
  private final LdapLimits limits;
  private int messageId = -1;
  private int opType = -1;
  private int filterElements;
  private long filterValueBytes;

  private MessageDecoder(BerReader r, LdapLimits limits) {
    this.r = r;
    this.limits = limits;
  }

  static LdapMessage decode(ByteString pdu, long baseOffset, LdapLimits limits)
      throws BerException {
    LdapMessage entry = EntryCodec.decode(pdu, limits, DESCRIPTIONS);
    if (entry != null) {
      return entry;
    }
    return decodeElementwise(pdu, baseOffset, limits);
  }

  /** Decodes {@code pdu} element by element, without the fast path of {@link EntryCodec}. */
  static LdapMessage decodeElementwise(ByteString pdu, long baseOffset, LdapLimits limits)
      throws BerException {
    BerReader r = BerReader.of(new ByteSequenceReader(pdu, baseOffset), BerRules.LDAP,
        limits.ber());
    MessageDecoder d = new MessageDecoder(r, limits);
    try {
      return d.message();
    } catch (BerException e) {
      throw d.withContext(e);
    } catch (IOException e) {
      throw new BerException("cannot decode: " + e.getMessage(), r.byteOffset(), d.context(), e);
    }
  }

  private LdapMessage message() throws IOException {
    r.readStartSequence();
    long idOffset = r.byteOffset();
    messageId = r.readInteger();
    if (messageId < 0) {
      throw error("message ID " + messageId + " (expected: 0..2147483647)", idOffset);
    }
    opType = r.peekType();
    ProtocolOp op = op();
    List<Control> controls = List.of();
    if (r.hasNextElement() && r.peekType() == Tags.CONTROLS) {
      opType = -1;
      controls = controls();
    }
    r.readEndSequence();
    if (r.hasNextElement()) {
      throw error("bytes after the LDAPMessage (expected: none)", r.byteOffset());
    }
    return new LdapMessage(messageId, op, controls);
  }

  private ProtocolOp op() throws IOException {
    return switch (opType) {
      case Tags.BIND_REQUEST -> bindRequest();
      case Tags.BIND_RESPONSE -> bindResponse();
      case Tags.UNBIND_REQUEST -> {
        r.readNull(Tags.UNBIND_REQUEST);
        yield new ProtocolOp.UnbindRequest();
      }
      case Tags.SEARCH_REQUEST -> searchRequest();
      case Tags.SEARCH_RESULT_ENTRY -> searchResultEntry();
      case Tags.SEARCH_RESULT_DONE -> new ProtocolOp.SearchResultDone(result(opType));
      case Tags.SEARCH_RESULT_REFERENCE -> new ProtocolOp.SearchResultReference(uris(opType));
      case Tags.MODIFY_REQUEST -> modifyRequest();
      case Tags.MODIFY_RESPONSE -> new ProtocolOp.ModifyResponse(result(opType));
      case Tags.ADD_REQUEST -> addRequest();
      case Tags.ADD_RESPONSE -> new ProtocolOp.AddResponse(result(opType));
      case Tags.DEL_REQUEST -> new ProtocolOp.DeleteRequest(r.readUtf8String(Tags.DEL_REQUEST));
      case Tags.DEL_RESPONSE -> new ProtocolOp.DeleteResponse(result(opType));
      case Tags.MODIFY_DN_REQUEST -> modifyDnRequest();
      case Tags.MODIFY_DN_RESPONSE -> new ProtocolOp.ModifyDnResponse(result(opType));
      case Tags.COMPARE_REQUEST -> compareRequest();
      case Tags.COMPARE_RESPONSE -> new ProtocolOp.CompareResponse(result(opType));
      case Tags.ABANDON_REQUEST -> abandonRequest();
      case Tags.EXTENDED_REQUEST -> extendedRequest();
      case Tags.EXTENDED_RESPONSE -> extendedResponse();
      case Tags.INTERMEDIATE_RESPONSE -> intermediateResponse();
      default -> throw error("unknown protocolOp " + BerTags.toString(opType), r.byteOffset());
    };
  }

  private ProtocolOp bindRequest() throws IOException {
    r.readStartSequence(Tags.BIND_REQUEST);
    long versionOffset = r.byteOffset();
    int version = r.readInteger();
    if (version < 1 || version > 127) {
      throw error("LDAP version " + version + " (expected: 1..127)", versionOffset);
    }
    String name = string();
    ProtocolOp.Authentication auth;
    int type = r.peekType();
    if (type == Tags.AUTH_SIMPLE) {
      auth = new ProtocolOp.Simple(r.readOctetString(Tags.AUTH_SIMPLE));
    } else if (type == Tags.AUTH_SASL) {
      r.readStartSequence(Tags.AUTH_SASL);
      String mechanism = string();
      ByteString credentials = r.hasNextElement() ? r.readOctetString() : null;
      r.readEndSequence();
      auth = new ProtocolOp.Sasl(mechanism, credentials);
    } else {
      throw error("unsupported authentication choice " + BerTags.toString(type)
          + " (expected: simple [0] or sasl [3])", r.byteOffset());
    }
    r.readEndSequence();
    return new ProtocolOp.BindRequest(version, name, auth);
  }

  private ProtocolOp bindResponse() throws IOException {
    r.readStartSequence(Tags.BIND_RESPONSE);
    LdapResult result = resultFields();
    ByteString creds = optionalOctets(Tags.SERVER_SASL_CREDS);
    r.readEndSequence();
    return new ProtocolOp.BindResponse(result, creds);
  }

  private ProtocolOp searchRequest() throws IOException {
    r.readStartSequence(Tags.SEARCH_REQUEST);
    String base = string();
    SearchScope scope = SCOPES[enumerated(SCOPES.length, "scope")];
    DerefAliases deref = DEREFS[enumerated(DEREFS.length, "derefAliases")];
    int sizeLimit = nonNegative("sizeLimit");
    int timeLimit = nonNegative("timeLimit");
    boolean typesOnly = r.readBoolean();
    Filter filter = filter(1);
    List<String> attributes = new ArrayList<>();
    r.readStartSequence();
    while (r.hasNextElement()) {
      attributes.add(string());
    }
    r.readEndSequence();
    r.readEndSequence();
    return new ProtocolOp.SearchRequest(base, scope, deref, sizeLimit, timeLimit, typesOnly,
        filter, attributes);
  }

  private ProtocolOp searchResultEntry() throws IOException {
    r.readStartSequence(Tags.SEARCH_RESULT_ENTRY);
    String dn = string();
    List<Attribute> attributes = attributes();
    r.readEndSequence();
    return new ProtocolOp.SearchResultEntry(dn, attributes);
  }

  private ProtocolOp modifyRequest() throws IOException {
    r.readStartSequence(Tags.MODIFY_REQUEST);
    String object = string();
    List<Modification> changes = new ArrayList<>();
    r.readStartSequence();
    while (r.hasNextElement()) {
      r.readStartSequence();
      int op = enumerated(CHANGE_TYPES.length, "modification operation");
      changes.add(new Modification(CHANGE_TYPES[op], attribute()));
      r.readEndSequence();
    }
    r.readEndSequence();
    r.readEndSequence();
    return new ProtocolOp.ModifyRequest(object, changes);
  }

  private ProtocolOp addRequest() throws IOException {
    r.readStartSequence(Tags.ADD_REQUEST);
    String entry = string();
    List<Attribute> attributes = attributes();
    r.readEndSequence();
    return new ProtocolOp.AddRequest(entry, attributes);
  }

  private ProtocolOp modifyDnRequest() throws IOException {
    r.readStartSequence(Tags.MODIFY_DN_REQUEST);
    String entry = string();
    String newRdn = string();
    boolean deleteOld = r.readBoolean();
    String newSuperior = optionalString(Tags.NEW_SUPERIOR);
    r.readEndSequence();
    return new ProtocolOp.ModifyDnRequest(entry, newRdn, deleteOld, newSuperior);
  }

  private ProtocolOp compareRequest() throws IOException {
    r.readStartSequence(Tags.COMPARE_REQUEST);
    String entry = string();
    r.readStartSequence();
    String desc = string();
    ByteString value = r.readOctetString();
    r.readEndSequence();
    r.readEndSequence();
    return new ProtocolOp.CompareRequest(entry, desc, value);
  }

  private ProtocolOp abandonRequest() throws IOException {
    long offset = r.byteOffset();
    int id = r.readInteger(Tags.ABANDON_REQUEST);
    if (id < 0) {
      throw error("abandoned message ID " + id + " (expected: 0..2147483647)", offset);
    }
    return new ProtocolOp.AbandonRequest(id);
  }

  private ProtocolOp extendedRequest() throws IOException {
    r.readStartSequence(Tags.EXTENDED_REQUEST);
    String name = oid(Tags.EXT_REQUEST_NAME);
    ByteString value = optionalOctets(Tags.EXT_REQUEST_VALUE);
    r.readEndSequence();
    return new ProtocolOp.ExtendedRequest(name, value);
  }

  private ProtocolOp extendedResponse() throws IOException {
    r.readStartSequence(Tags.EXTENDED_RESPONSE);
    LdapResult result = resultFields();
    String name = nextIs(Tags.EXT_RESPONSE_NAME) ? oid(Tags.EXT_RESPONSE_NAME) : null;
    ByteString value = optionalOctets(Tags.EXT_RESPONSE_VALUE);
    r.readEndSequence();
    return new ProtocolOp.ExtendedResponse(result, name, value);
  }

  private ProtocolOp intermediateResponse() throws IOException {
    r.readStartSequence(Tags.INTERMEDIATE_RESPONSE);
    String name = nextIs(Tags.INTERMEDIATE_NAME) ? oid(Tags.INTERMEDIATE_NAME) : null;
    ByteString value = optionalOctets(Tags.INTERMEDIATE_VALUE);
    r.readEndSequence();
    return new ProtocolOp.IntermediateResponse(name, value);
  }

  private LdapResult result(int type) throws IOException {
    r.readStartSequence(type);
    LdapResult result = resultFields();
    r.readEndSequence();
    return result;
  }

  private LdapResult resultFields() throws IOException {
    ResultCode code = ResultCode.valueOf(r.readEnumerated());
    String matched = string();
    String message = string();
    List<String> referrals = nextIs(Tags.REFERRAL) ? uris(Tags.REFERRAL) : List.of();
    return new LdapResult(code, matched, message, referrals);
  }

  private List<String> uris(int type) throws IOException {
    List<String> uris = new ArrayList<>();
    r.readStartSequence(type);
    while (r.hasNextElement()) {
      uris.add(string());
    }
    r.readEndSequence();
    return uris;
  }

  private List<Attribute> attributes() throws IOException {
    FrozenList<Attribute> attributes = new FrozenList<>();
    r.readStartSequence();
    while (r.hasNextElement()) {
      attributes.add0(attribute());
    }
    r.readEndSequence();
    return attributes.freeze();
  }

  private Attribute attribute() throws IOException {
    r.readStartSequence();
    String desc = r.readUtf8String(BerTags.OCTET_STRING, DESCRIPTIONS);
    r.readStartSet();
    Attribute a;
    if (!r.hasNextElement()) {
      a = new Attribute(desc, List.of());
    } else {
      ByteString first = r.readOctetString();
      if (!r.hasNextElement()) {
        a = Attribute.single(desc, first);
      } else {
        FrozenList<ByteString> more = new FrozenList<>();
        more.add0(first);
        while (r.hasNextElement()) {
          more.add0(r.readOctetString());
        }
        a = new Attribute(desc, more.freeze());
      }
    }
    r.readEndSet();
    r.readEndSequence();
    return a;
  }

  private List<Control> controls() throws IOException {
    List<Control> controls = new ArrayList<>();
    r.readStartSequence(Tags.CONTROLS);
    while (r.hasNextElement()) {
      r.readStartSequence();
      String oid = oid(BerTags.OCTET_STRING);
      boolean critical = nextIs(BerTags.BOOLEAN) && r.readBoolean();
      ByteString value = optionalOctets(BerTags.OCTET_STRING);
      r.readEndSequence();
      controls.add(new Control(oid, critical, value));
    }
    r.readEndSequence();
    return controls;
  }

  // ---------------------------------------------------------------------------------------------

  private Filter filter(int depth) throws IOException {
    if (depth > limits.maxFilterDepth()) {
      throw filterLimit("LdapLimits.maxFilterDepth", limits.maxFilterDepth(), depth);
    }
    if (++filterElements > limits.maxFilterElements()) {
      throw filterLimit("LdapLimits.maxFilterElements", limits.maxFilterElements(),
          filterElements);
    }
    int type = r.peekType();
    return switch (type) {
      case Tags.FILTER_AND -> new Filter.And(filterSet(type, depth));
      case Tags.FILTER_OR -> new Filter.Or(filterSet(type, depth));
      case Tags.FILTER_NOT -> {
        r.readStartSequence(type);
        Filter inner = filter(depth + 1);
        r.readEndSequence();
        yield new Filter.Not(inner);
      }
      case Tags.FILTER_EQUALITY, Tags.FILTER_GE, Tags.FILTER_LE, Tags.FILTER_APPROX -> ava(type);
      case Tags.FILTER_SUBSTRINGS -> substrings();
      case Tags.FILTER_PRESENT -> new Filter.Present(r.readUtf8String(Tags.FILTER_PRESENT));
      case Tags.FILTER_EXTENSIBLE -> extensible();
      default -> throw error("unknown filter choice " + BerTags.toString(type), r.byteOffset());
    };
  }

  private List<Filter> filterSet(int type, int depth) throws IOException {
    List<Filter> filters = new ArrayList<>();
    r.readStartSet(type);
    while (r.hasNextElement()) {
      filters.add(filter(depth + 1));
    }
    r.readEndSet();
    return filters;
  }

  private Filter ava(int type) throws IOException {
    r.readStartSequence(type);
    String attribute = string();
    ByteString value = assertionValue(BerTags.OCTET_STRING);
    r.readEndSequence();
    return switch (type) {
      case Tags.FILTER_EQUALITY -> new Filter.Equality(attribute, value);
      case Tags.FILTER_GE -> new Filter.GreaterOrEqual(attribute, value);
      case Tags.FILTER_LE -> new Filter.LessOrEqual(attribute, value);
      default -> new Filter.Approx(attribute, value);
    };
  }

  private Filter substrings() throws IOException {
    r.readStartSequence(Tags.FILTER_SUBSTRINGS);
    String attribute = string();
    ByteString initial = null;
    ByteString fin = null;
    List<ByteString> any = new ArrayList<>();
    long start = r.byteOffset();
    r.readStartSequence();
    int parts = 0;
    while (r.hasNextElement()) {
      long offset = r.byteOffset();
      if (++parts > limits.maxSubstringParts()) {
        throw filterLimit("LdapLimits.maxSubstringParts", limits.maxSubstringParts(), parts);
      }
      int type = r.peekType();
      boolean misplaced = fin != null
          || type == Tags.SUBSTRING_INITIAL && (initial != null || !any.isEmpty());
      if (misplaced) {
        throw error("substring out of order (expected: initial first, final last, each once)",
            offset);
      }
      switch (type) {
        case Tags.SUBSTRING_INITIAL -> initial = assertionValue(type);
        case Tags.SUBSTRING_ANY -> any.add(assertionValue(type));
        case Tags.SUBSTRING_FINAL -> fin = assertionValue(type);
        default -> throw error("unknown substring choice " + BerTags.toString(type), offset);
      }
    }
    if (initial == null && any.isEmpty() && fin == null) {
      throw error("substrings filter without substrings (expected: at least one)", start);
    }
    r.readEndSequence();
    r.readEndSequence();
    return new Filter.Substrings(attribute, initial, any, fin);
  }

  private Filter extensible() throws IOException {
    long start = r.byteOffset();
    r.readStartSequence(Tags.FILTER_EXTENSIBLE);
    String rule = optionalString(Tags.MATCHING_RULE);
    String type = optionalString(Tags.MATCH_TYPE);
    ByteString value = assertionValue(Tags.MATCH_VALUE);
    boolean dn = nextIs(Tags.DN_ATTRIBUTES) && r.readBoolean(Tags.DN_ATTRIBUTES);
    r.readEndSequence();
    if (rule == null && type == null) {
      throw error("extensible match without rule or type (expected: at least one)", start);
    }
    return new Filter.Extensible(rule, type, value, dn);
  }

  /** Reads an assertion value, counting it against {@code maxFilterValueBytes} first. */
  private ByteString assertionValue(int type) throws IOException {
    if (r.peekType() == type) {
      filterValueBytes += r.peekLength();
      if (filterValueBytes > limits.maxFilterValueBytes()) {
        throw filterLimit("LdapLimits.maxFilterValueBytes", limits.maxFilterValueBytes(),
            filterValueBytes);
      }
    }
    return r.readOctetString(type);
  }

  /**
   * A filter over a limit: the PDU was framed whole, so the connection can go on and the
   * server answer this one request (slapd and RFC 4511 would say adminLimitExceeded).
   */
  private BerException filterLimit(String name, long limit, long actual) {
    return BerException.limitExceededInElement(name, limit, actual, r.byteOffset(), null);
  }

  // ---------------------------------------------------------------------------------------------

  private String string() throws IOException {
    return r.readUtf8String(BerTags.OCTET_STRING);
  }

  private String oid(int type) throws IOException {
    long offset = r.byteOffset();
    if (r.peekType() == type && r.peekLength() > limits.maxOidBytes()) {
      throw BerException.limitExceeded("LdapLimits.maxOidBytes", limits.maxOidBytes(),
          r.peekLength(), offset, null);
    }
    return r.readUtf8String(type);
  }

  private boolean nextIs(int type) throws IOException {
    return r.hasNextElement() && r.peekType() == type;
  }

  private String optionalString(int type) throws IOException {
    return nextIs(type) ? r.readUtf8String(type) : null;
  }

  private ByteString optionalOctets(int type) throws IOException {
    return nextIs(type) ? r.readOctetString(type) : null;
  }

  private int enumerated(int count, String what) throws IOException {
    long offset = r.byteOffset();
    int v = r.readEnumerated();
    if (v < 0 || v >= count) {
      throw error(what + " " + v + " (expected: 0.." + (count - 1) + ")", offset);
    }
    return v;
  }

  private int nonNegative(String what) throws IOException {
    long offset = r.byteOffset();
    int v = r.readInteger();
    if (v < 0) {
      throw error(what + " " + v + " (expected: 0..2147483647)", offset);
    }
    return v;
  }

  private BerException error(String reason, long offset) {
    return new BerException(reason, offset, null);
  }

  private String context() {
    if (messageId < 0) {
      return "";
    }
    String s = "message " + messageId;
    return opType < 0 ? s : s + " > " + Tags.opName(opType);
  }

  private BerException withContext(BerException e) {
    String ctx = context();
    if (ctx.isEmpty() || !e.context().isEmpty()) {
      return e;
    }
    BerException wrapped = e.isLimitExceeded() && e.isFatal()
        ? BerException.limitExceeded(e.limitName(), e.limitValue(), e.actualValue(),
            e.byteOffset(), ctx)
        : e.isLimitExceeded()
        ? BerException.limitExceededInElement(e.limitName(), e.limitValue(), e.actualValue(),
            e.byteOffset(), ctx)
        : new BerException(e.reason(), e.byteOffset(), ctx);
    wrapped.setStackTrace(e.getStackTrace());
    return wrapped;
  }
}
