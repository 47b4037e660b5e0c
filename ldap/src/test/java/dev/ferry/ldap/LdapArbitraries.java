package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ProtocolOp.Authentication;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generators for every protocol element, shared by the property classes. */
final class LdapArbitraries {
  private LdapArbitraries() {}

  static Arbitrary<String> text() {
    return Arbitraries.strings().withCharRange(' ', '~').withChars('é', '中', 'ß')
        .ofMaxLength(24);
  }

  static Arbitrary<String> descriptions() {
    return Arbitraries.strings().withCharRange('a', 'z').withChars('-', ';', '1')
        .ofMinLength(1).ofMaxLength(16);
  }

  static Arbitrary<String> oids() {
    return Arbitraries.integers().between(0, 99999).list().ofMinSize(2).ofMaxSize(8)
        .map(l -> String.join(".", l.stream().map(String::valueOf).toList()));
  }

  static Arbitrary<ByteString> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(200).map(ByteString::of);
  }

  static Arbitrary<ByteString> nonEmptyBytes() {
    return Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(50)
        .map(ByteString::of);
  }

  static Arbitrary<ByteString> optionalBytes() {
    return bytes().injectNull(0.3);
  }

  static Arbitrary<Attribute> attributes() {
    return Combinators.combine(descriptions(), bytes().list().ofMaxSize(4)).as(Attribute::new);
  }

  static Arbitrary<LdapResult> results() {
    return Combinators.combine(Arbitraries.integers().between(0, 200).map(ResultCode::valueOf),
        text(), text(), text().list().ofMaxSize(2)).as(LdapResult::new);
  }

  static Arbitrary<Control> controls() {
    return Combinators.combine(oids(), Arbitraries.of(true, false), optionalBytes())
        .as(Control::new);
  }

  static Arbitrary<Filter> filters() {
    return filters(4);
  }

  private static Arbitrary<Filter> filters(int depth) {
    Arbitrary<Filter> leaf = Arbitraries.oneOf(
        Combinators.combine(descriptions(), bytes()).as(Filter.Equality::new),
        Combinators.combine(descriptions(), bytes()).as(Filter.GreaterOrEqual::new),
        Combinators.combine(descriptions(), bytes()).as(Filter.LessOrEqual::new),
        Combinators.combine(descriptions(), bytes()).as(Filter.Approx::new),
        descriptions().map(Filter.Present::new),
        // Empty substrings are valid BER but have no RFC 4515 string form.
        Combinators.combine(descriptions(), nonEmptyBytes().injectNull(0.3),
            nonEmptyBytes().list().ofMaxSize(3), nonEmptyBytes())
            .as((a, i, any, f) -> new Filter.Substrings(a, i, any, f)),
        Combinators.combine(oids().injectNull(0.3), descriptions(), bytes(),
            Arbitraries.of(true, false)).as(Filter.Extensible::new));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Filter> inner = filters(depth - 1);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, leaf),
        net.jqwik.api.Tuple.of(1, inner.list().ofMaxSize(3).map(Filter.And::new)),
        net.jqwik.api.Tuple.of(1, inner.list().ofMaxSize(3).map(Filter.Or::new)),
        net.jqwik.api.Tuple.of(1, inner.map(Filter.Not::new)));
  }

  static Arbitrary<Authentication> authentications() {
    return Arbitraries.oneOf(bytes().map(ProtocolOp.Simple::new),
        Combinators.combine(descriptions(), optionalBytes()).as(ProtocolOp.Sasl::new));
  }

  /** Every protocolOp choice of RFC 4511. */
  static Arbitrary<ProtocolOp> ops() {
    return Arbitraries.oneOf(List.of(
        Combinators.combine(Arbitraries.integers().between(1, 127), text(), authentications())
            .as(ProtocolOp.BindRequest::new),
        Combinators.combine(results(), optionalBytes()).as(ProtocolOp.BindResponse::new),
        Arbitraries.just(new ProtocolOp.UnbindRequest()),
        Combinators.combine(text(), Arbitraries.of(SearchScope.class),
            Arbitraries.of(DerefAliases.class), Arbitraries.integers().greaterOrEqual(0),
            Arbitraries.integers().greaterOrEqual(0), Arbitraries.of(true, false), filters(),
            descriptions().list().ofMaxSize(4)).as(ProtocolOp.SearchRequest::new),
        Combinators.combine(text(), attributes().list().ofMaxSize(5))
            .as(ProtocolOp.SearchResultEntry::new),
        text().list().ofMinSize(1).ofMaxSize(3).map(ProtocolOp.SearchResultReference::new),
        results().map(ProtocolOp.SearchResultDone::new),
        Combinators.combine(text(), Combinators.combine(
            Arbitraries.of(Modification.Type.class), attributes()).as(Modification::new)
            .list().ofMaxSize(3)).as(ProtocolOp.ModifyRequest::new),
        results().map(ProtocolOp.ModifyResponse::new),
        Combinators.combine(text(), attributes().list().ofMaxSize(4))
            .as(ProtocolOp.AddRequest::new),
        results().map(ProtocolOp.AddResponse::new),
        text().map(ProtocolOp.DeleteRequest::new),
        results().map(ProtocolOp.DeleteResponse::new),
        Combinators.combine(text(), text(), Arbitraries.of(true, false), text().injectNull(0.5))
            .as(ProtocolOp.ModifyDnRequest::new),
        results().map(ProtocolOp.ModifyDnResponse::new),
        Combinators.combine(text(), descriptions(), bytes()).as(ProtocolOp.CompareRequest::new),
        results().map(ProtocolOp.CompareResponse::new),
        Arbitraries.integers().greaterOrEqual(0).map(ProtocolOp.AbandonRequest::new),
        Combinators.combine(oids(), optionalBytes()).as(ProtocolOp.ExtendedRequest::new),
        Combinators.combine(results(), oids().injectNull(0.5), optionalBytes())
            .as(ProtocolOp.ExtendedResponse::new),
        Combinators.combine(oids().injectNull(0.5), optionalBytes())
            .as(ProtocolOp.IntermediateResponse::new)));
  }

  static Arbitrary<LdapMessage> messages() {
    return Combinators.combine(Arbitraries.integers().greaterOrEqual(0), ops(),
        controls().list().ofMaxSize(2)).as(LdapMessage::new);
  }
}
