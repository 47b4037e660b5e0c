package dev.ferry.ldap;

import dev.ferry.asn1.BerTags;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ProtocolOp.AbandonRequest;
import dev.ferry.ldap.ProtocolOp.AddRequest;
import dev.ferry.ldap.ProtocolOp.AddResponse;
import dev.ferry.ldap.ProtocolOp.BindRequest;
import dev.ferry.ldap.ProtocolOp.BindResponse;
import dev.ferry.ldap.ProtocolOp.CompareRequest;
import dev.ferry.ldap.ProtocolOp.CompareResponse;
import dev.ferry.ldap.ProtocolOp.DeleteRequest;
import dev.ferry.ldap.ProtocolOp.DeleteResponse;
import dev.ferry.ldap.ProtocolOp.ExtendedRequest;
import dev.ferry.ldap.ProtocolOp.ExtendedResponse;
import dev.ferry.ldap.ProtocolOp.IntermediateResponse;
import dev.ferry.ldap.ProtocolOp.ModifyDnRequest;
import dev.ferry.ldap.ProtocolOp.ModifyDnResponse;
import dev.ferry.ldap.ProtocolOp.ModifyRequest;
import dev.ferry.ldap.ProtocolOp.ModifyResponse;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultDone;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ProtocolOp.SearchResultReference;
import dev.ferry.ldap.ProtocolOp.UnbindRequest;
import java.io.IOException;
import java.util.List;

/** Writes LDAPMessages through a {@link BerWriter}; one method per RFC 4511 production. */
final class MessageEncoder {
  private MessageEncoder() {}

  static void message(BerWriter w, LdapMessage m) throws IOException {
    w.writeStartSequence();
    w.writeInteger(m.messageId());
    op(w, m.op());
    if (!m.controls().isEmpty()) {
      w.writeStartSequence(Tags.CONTROLS);
      for (Control c : m.controls()) {
        control(w, c);
      }
      w.writeEndSequence();
    }
    w.writeEndSequence();
  }

  private static void op(BerWriter w, ProtocolOp op) throws IOException {
    switch (op) {
      case BindRequest b -> bindRequest(w, b);
      case BindResponse b -> {
        w.writeStartSequence(Tags.BIND_RESPONSE);
        resultFields(w, b.result());
        optionalOctets(w, Tags.SERVER_SASL_CREDS, b.serverSaslCredentials());
        w.writeEndSequence();
      }
      case UnbindRequest u -> w.writeNull(Tags.UNBIND_REQUEST);
      case SearchRequest s -> searchRequest(w, s);
      case SearchResultEntry e -> {
        w.writeStartSequence(Tags.SEARCH_RESULT_ENTRY);
        string(w, e.objectName());
        attributes(w, e.attributes());
        w.writeEndSequence();
      }
      case SearchResultReference r -> {
        w.writeStartSequence(Tags.SEARCH_RESULT_REFERENCE);
        for (String uri : r.uris()) {
          string(w, uri);
        }
        w.writeEndSequence();
      }
      case SearchResultDone d -> result(w, Tags.SEARCH_RESULT_DONE, d.result());
      case ModifyRequest m -> modifyRequest(w, m);
      case ModifyResponse r -> result(w, Tags.MODIFY_RESPONSE, r.result());
      case AddRequest a -> {
        w.writeStartSequence(Tags.ADD_REQUEST);
        string(w, a.entry());
        attributes(w, a.attributes());
        w.writeEndSequence();
      }
      case AddResponse r -> result(w, Tags.ADD_RESPONSE, r.result());
      case DeleteRequest d -> w.writeUtf8String(Tags.DEL_REQUEST, d.entry());
      case DeleteResponse r -> result(w, Tags.DEL_RESPONSE, r.result());
      case ModifyDnRequest m -> modifyDnRequest(w, m);
      case ModifyDnResponse r -> result(w, Tags.MODIFY_DN_RESPONSE, r.result());
      case CompareRequest c -> compareRequest(w, c);
      case CompareResponse r -> result(w, Tags.COMPARE_RESPONSE, r.result());
      case AbandonRequest a -> w.writeInteger(Tags.ABANDON_REQUEST, a.messageId());
      case ExtendedRequest e -> {
        w.writeStartSequence(Tags.EXTENDED_REQUEST);
        w.writeUtf8String(Tags.EXT_REQUEST_NAME, e.name());
        optionalOctets(w, Tags.EXT_REQUEST_VALUE, e.value());
        w.writeEndSequence();
      }
      case ExtendedResponse e -> extendedResponse(w, e);
      case IntermediateResponse i -> {
        w.writeStartSequence(Tags.INTERMEDIATE_RESPONSE);
        optionalString(w, Tags.INTERMEDIATE_NAME, i.name());
        optionalOctets(w, Tags.INTERMEDIATE_VALUE, i.value());
        w.writeEndSequence();
      }
    }
  }

  private static void bindRequest(BerWriter w, BindRequest b) throws IOException {
    w.writeStartSequence(Tags.BIND_REQUEST);
    w.writeInteger(b.version());
    string(w, b.name());
    switch (b.authentication()) {
      case ProtocolOp.Simple s -> w.writeOctetString(Tags.AUTH_SIMPLE, s.password());
      case ProtocolOp.Sasl s -> {
        w.writeStartSequence(Tags.AUTH_SASL);
        string(w, s.mechanism());
        if (s.credentials() != null) {
          w.writeOctetString(s.credentials());
        }
        w.writeEndSequence();
      }
    }
    w.writeEndSequence();
  }

  private static void searchRequest(BerWriter w, SearchRequest s) throws IOException {
    w.writeStartSequence(Tags.SEARCH_REQUEST);
    string(w, s.baseObject());
    w.writeInteger(BerTags.ENUMERATED, s.scope().value());
    w.writeInteger(BerTags.ENUMERATED, s.derefAliases().value());
    w.writeInteger(s.sizeLimit());
    w.writeInteger(s.timeLimit());
    w.writeBoolean(s.typesOnly());
    filter(w, s.filter());
    w.writeStartSequence();
    for (String a : s.attributes()) {
      string(w, a);
    }
    w.writeEndSequence();
    w.writeEndSequence();
  }

  private static void modifyRequest(BerWriter w, ModifyRequest m) throws IOException {
    w.writeStartSequence(Tags.MODIFY_REQUEST);
    string(w, m.object());
    w.writeStartSequence();
    for (Modification c : m.changes()) {
      w.writeStartSequence();
      w.writeInteger(BerTags.ENUMERATED, c.type().ordinal());
      attribute(w, c.attribute());
      w.writeEndSequence();
    }
    w.writeEndSequence();
    w.writeEndSequence();
  }

  private static void modifyDnRequest(BerWriter w, ModifyDnRequest m) throws IOException {
    w.writeStartSequence(Tags.MODIFY_DN_REQUEST);
    string(w, m.entry());
    string(w, m.newRdn());
    w.writeBoolean(m.deleteOldRdn());
    optionalString(w, Tags.NEW_SUPERIOR, m.newSuperior());
    w.writeEndSequence();
  }

  private static void compareRequest(BerWriter w, CompareRequest c) throws IOException {
    w.writeStartSequence(Tags.COMPARE_REQUEST);
    string(w, c.entry());
    w.writeStartSequence();
    string(w, c.attributeDescription());
    w.writeOctetString(c.assertionValue());
    w.writeEndSequence();
    w.writeEndSequence();
  }

  private static void extendedResponse(BerWriter w, ExtendedResponse e) throws IOException {
    w.writeStartSequence(Tags.EXTENDED_RESPONSE);
    resultFields(w, e.result());
    optionalString(w, Tags.EXT_RESPONSE_NAME, e.name());
    optionalOctets(w, Tags.EXT_RESPONSE_VALUE, e.value());
    w.writeEndSequence();
  }

  private static void result(BerWriter w, int type, LdapResult r) throws IOException {
    w.writeStartSequence(type);
    resultFields(w, r);
    w.writeEndSequence();
  }

  private static void resultFields(BerWriter w, LdapResult r) throws IOException {
    w.writeInteger(BerTags.ENUMERATED, r.resultCode().value());
    string(w, r.matchedDn());
    string(w, r.diagnosticMessage());
    if (!r.referrals().isEmpty()) {
      w.writeStartSequence(Tags.REFERRAL);
      for (String uri : r.referrals()) {
        string(w, uri);
      }
      w.writeEndSequence();
    }
  }

  private static void attributes(BerWriter w, List<Attribute> attributes) throws IOException {
    w.writeStartSequence();
    for (Attribute a : attributes) {
      attribute(w, a);
    }
    w.writeEndSequence();
  }

  private static void attribute(BerWriter w, Attribute a) throws IOException {
    w.writeStartSequence();
    string(w, a.description());
    w.writeStartSetOf();
    for (int i = 0, n = a.size(); i < n; i++) {
      w.writeOctetString(a.value(i));
    }
    w.writeEndSet();
    w.writeEndSequence();
  }

  private static void control(BerWriter w, Control c) throws IOException {
    w.writeStartSequence();
    string(w, c.oid());
    if (c.critical()) {
      w.writeBoolean(true);
    }
    if (c.value() != null) {
      w.writeOctetString(c.value());
    }
    w.writeEndSequence();
  }

  static void filter(BerWriter w, Filter f) throws IOException {
    switch (f) {
      case Filter.And a -> filterSet(w, Tags.FILTER_AND, a.filters());
      case Filter.Or o -> filterSet(w, Tags.FILTER_OR, o.filters());
      case Filter.Not n -> {
        w.writeStartSequence(Tags.FILTER_NOT);
        filter(w, n.filter());
        w.writeEndSequence();
      }
      case Filter.Equality e -> ava(w, Tags.FILTER_EQUALITY, e.attribute(), e.value());
      case Filter.Substrings s -> substrings(w, s);
      case Filter.GreaterOrEqual g -> ava(w, Tags.FILTER_GE, g.attribute(), g.value());
      case Filter.LessOrEqual l -> ava(w, Tags.FILTER_LE, l.attribute(), l.value());
      case Filter.Present p -> w.writeUtf8String(Tags.FILTER_PRESENT, p.attribute());
      case Filter.Approx a -> ava(w, Tags.FILTER_APPROX, a.attribute(), a.value());
      case Filter.Extensible x -> {
        w.writeStartSequence(Tags.FILTER_EXTENSIBLE);
        optionalString(w, Tags.MATCHING_RULE, x.matchingRule());
        optionalString(w, Tags.MATCH_TYPE, x.attribute());
        w.writeOctetString(Tags.MATCH_VALUE, x.value());
        if (x.dnAttributes()) {
          w.writeBoolean(Tags.DN_ATTRIBUTES, true);
        }
        w.writeEndSequence();
      }
    }
  }

  private static void filterSet(BerWriter w, int type, List<Filter> filters) throws IOException {
    w.writeStartSetOf(type);
    for (Filter f : filters) {
      filter(w, f);
    }
    w.writeEndSet();
  }

  private static void ava(BerWriter w, int type, String attribute, ByteString value)
      throws IOException {
    w.writeStartSequence(type);
    string(w, attribute);
    w.writeOctetString(value);
    w.writeEndSequence();
  }

  private static void substrings(BerWriter w, Filter.Substrings s) throws IOException {
    w.writeStartSequence(Tags.FILTER_SUBSTRINGS);
    string(w, s.attribute());
    w.writeStartSequence();
    optionalOctets(w, Tags.SUBSTRING_INITIAL, s.initial());
    for (ByteString any : s.any()) {
      w.writeOctetString(Tags.SUBSTRING_ANY, any);
    }
    optionalOctets(w, Tags.SUBSTRING_FINAL, s.finalValue());
    w.writeEndSequence();
    w.writeEndSequence();
  }

  private static void string(BerWriter w, String s) throws IOException {
    w.writeUtf8String(BerTags.OCTET_STRING, s);
  }

  private static void optionalString(BerWriter w, int type, String s) throws IOException {
    if (s != null) {
      w.writeUtf8String(type, s);
    }
  }

  private static void optionalOctets(BerWriter w, int type, ByteString v) throws IOException {
    if (v != null) {
      w.writeOctetString(type, v);
    }
  }
}
