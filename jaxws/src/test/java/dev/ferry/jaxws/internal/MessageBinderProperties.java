package dev.ferry.jaxws.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Whatever the values, policy and SOAP version, what is written through JAXB reads back. */
class MessageBinderProperties {
  @Property(tries = 60, seed = "19")
  void echoRequestsRoundTrip(@ForAll("names") String name,
      @ForAll @Size(max = 70_000) byte[] blob, @ForAll("policies") MtomPolicy policy,
      @ForAll SoapVersion version) throws Exception {
    Operation op = MessageBinderTest.ECHO.operations().get(0);
    Object[] values = op.requestValues(new Object[] {new Holder<>(name),
        new Holder<>(new DataHandler(new BytesSource(blob)))});
    Wire wire = Wire.write(version, policy, List.of(), body -> MessageBinderTest.BINDER
        .writeBody(body, op.requestWrapper(), op.inParts(), values));
    assertThat(wire.text().contains("xop:Include")).isEqualTo(policy.isMtom());
    Object[] args = MessageBinderTest.readRequest(op, wire);
    assertThat(((Holder<?>) args[0]).value).isEqualTo(name);
    assertThat(MessageBinderTest.read((DataHandler) ((Holder<?>) args[1]).value))
        .isEqualTo(blob);
  }

  @Property(tries = 60, seed = "19")
  void listsHeadersAndOutPartsRoundTrip(@ForAll @Size(max = 20) List<@IntRange(max = 9)
      Integer> lengths, @ForAll("names") String tenant) throws Exception {
    Operation count = MessageBinderTest.operation(MessageBinderTest.SHAPES, "count");
    List<String> words = lengths.stream().map("x"::repeat).toList();
    Object[] values = count.requestValues(new Object[] {words, tenant, new Holder<String>()});
    Wire wire = Wire.write(SoapVersion.SOAP_11, MtomPolicy.NEVER,
        MessageBinderTest.BINDER.headers(count.inParts(), values),
        body -> MessageBinderTest.BINDER.writeBody(body, count.requestWrapper(),
            count.inParts(), values));
    Object[] args = MessageBinderTest.readRequest(count, wire);
    assertThat(args[0]).isEqualTo(words);
    assertThat(args[1]).isEqualTo(tenant);
  }

  @Provide
  Arbitrary<String> names() {
    // any character XML 1.0 can carry, markup characters included
    return Arbitraries.strings().withCharRange(' ', '\uD7FF').ofMaxLength(40);
  }

  @Provide
  Arbitrary<MtomPolicy> policies() {
    return Arbitraries.of(MtomPolicy.NEVER, MtomPolicy.ALWAYS, MtomPolicy.threshold(1024));
  }
}
