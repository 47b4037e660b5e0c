package dev.ferry.bench.ldap;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.asn1.ASN1StreamReader;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.ProtocolOp;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.codec.osgi.DefaultLdapCodecService;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.ASN1TaggedObject;
import org.bouncycastle.asn1.BERTags;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DLSequence;
import org.bouncycastle.asn1.DLSet;
import org.bouncycastle.asn1.DLTaggedObject;
import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.io.LDAPWriter;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Encode and decode one SearchResultEntry PDU with Ferry and its peers: UnboundID LDAP SDK,
 * Apache Directory LDAP API, OpenDJ core, and Bouncy Castle's element-tree ASN.1. Every encoder
 * starts from its own library's entry model (built in setup). Every decoder starts from the same
 * {@code byte[]} the caller owns ({@link #pdu}), through its library's public API: Ferry hands
 * the array over with {@link ByteString#takeOwnership(byte[])} ({@link #ferryDecode}), or copies
 * it with {@link ByteString#of(byte...)} ({@link #ferryDecodeCopied}, what a caller that reuses
 * its array pays). {@code arraycopy} is the floor: one copy of the PDU. Run with
 * {@code -prof gc} for allocation per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LdapEntryBenchmark {
  private static final int ID = 17;

  @Param({"1k", "4k", "64k"})
  String shape;

  byte[] pdu;
  byte[] scratch;

  LdapMessage ferryMessage;
  ByteString ferryPdu;
  final ByteStringBuilder ferryOut = new ByteStringBuilder();
  final BerWriter ferryWriter = new BerWriter();

  com.unboundid.ldap.protocol.LDAPMessage unboundidMessage;
  final ASN1Buffer unboundidOut = new ASN1Buffer();

  LdapApiService apacheCodec;
  SearchResultEntryImpl apacheMessage;
  final Asn1Buffer apacheOut = new Asn1Buffer();

  SearchResultEntry opendjEntry;
  org.forgerock.opendj.ldap.ByteStringBuilder opendjOut;
  LDAPWriter<ASN1Writer> opendjWriter;
  final DecodeOptions opendjOptions = new DecodeOptions();

  List<EntryShapes.Attr> attrs;

  @Setup
  public void setUp() throws Exception {
    attrs = EntryShapes.attributes(shape);
    List<Attribute> ferryAttrs = new ArrayList<>();
    List<com.unboundid.ldap.sdk.Attribute> unboundidAttrs = new ArrayList<>();
    apacheMessage = new SearchResultEntryImpl(ID);
    DefaultEntry apacheEntry = new DefaultEntry(EntryShapes.DN);
    opendjEntry = Responses.newSearchResultEntry(EntryShapes.DN);
    for (EntryShapes.Attr a : attrs) {
      ferryAttrs.add(new Attribute(a.name(), a.values().stream().map(ByteString::of).toList()));
      unboundidAttrs.add(new com.unboundid.ldap.sdk.Attribute(a.name(),
          a.values().toArray(new byte[0][])));
      apacheEntry.add(a.name(), a.values().toArray(new byte[0][]));
      opendjEntry.addAttribute(new LinkedAttribute(a.name(), a.values().stream()
          .map(org.forgerock.opendj.ldap.ByteString::wrap).toArray()));
    }
    ferryMessage = LdapMessage.of(ID, new ProtocolOp.SearchResultEntry(EntryShapes.DN,
        ferryAttrs));
    ferryPdu = LdapCodec.encode(ferryMessage);
    pdu = ferryPdu.toByteArray();
    scratch = new byte[pdu.length];

    unboundidMessage = new com.unboundid.ldap.protocol.LDAPMessage(ID,
        new com.unboundid.ldap.protocol.SearchResultEntryProtocolOp(EntryShapes.DN,
            unboundidAttrs));
    apacheCodec = new DefaultLdapCodecService();
    apacheMessage.setObjectName(apacheEntry.getDn());
    apacheMessage.setEntry(apacheEntry);
    opendjOut = new org.forgerock.opendj.ldap.ByteStringBuilder();
    opendjWriter = LDAP.getWriter(ASN1.getWriter(opendjOut), 3);
    checkSameBytes();
  }

  /** Every encoder must produce the PDU the decoders read, or the comparison is unfair. */
  private void checkSameBytes() throws Exception {
    check("unboundid", unboundidMessage.encode().encode());
    apacheOut.clear();
    ByteBuffer b = LdapEncoder.encodeMessage(apacheOut, apacheCodec, apacheMessage);
    byte[] apache = new byte[b.remaining()];
    b.get(apache);
    if (apache.length != pdu.length) { // Apache orders attributes by its own map
      throw new IllegalStateException("apache PDU size " + apache.length + " != " + pdu.length);
    }
    opendjOut.clear();
    opendjWriter.writeSearchResultEntry(ID, opendjEntry);
    check("opendj", opendjOut.toByteArray());
    check("bouncycastle", bcEncode());
    if (bcDecode(null) != attrs.size() || ((ProtocolOp.SearchResultEntry) LdapCodec.decode(
        ferryPdu).op()).attributes().size() != attrs.size()) {
      throw new IllegalStateException("decoders disagree");
    }
  }

  private void check(String name, byte[] bytes) {
    if (!java.util.Arrays.equals(bytes, pdu)) {
      throw new IllegalStateException(name + " encodes " + bytes.length
          + " bytes differently from ferry's " + pdu.length);
    }
  }

  // --- floor ------------------------------------------------------------------------------------

  @Benchmark
  public byte[] arraycopy() {
    System.arraycopy(pdu, 0, scratch, 0, pdu.length);
    return scratch;
  }

  // --- Ferry ------------------------------------------------------------------------------------

  @Benchmark
  public int ferryEncode() {
    ferryOut.clear();
    LdapCodec.encode(ferryMessage, ferryOut, ferryWriter);
    return ferryOut.size();
  }

  @Benchmark
  public LdapMessage ferryDecode() throws Exception {
    return LdapCodec.decode(ByteString.takeOwnership(pdu)); // pdu is never written again
  }

  @Benchmark
  public LdapMessage ferryDecodeCopied() throws Exception {
    return LdapCodec.decode(ByteString.of(pdu));
  }

  // --- UnboundID --------------------------------------------------------------------------------

  @Benchmark
  public int unboundidEncode() {
    unboundidOut.clear();
    unboundidMessage.writeTo(unboundidOut);
    return unboundidOut.length();
  }

  @Benchmark
  public Object unboundidDecode() throws Exception {
    return com.unboundid.ldap.protocol.LDAPMessage.readLDAPResponseFrom(
        new ASN1StreamReader(new ByteArrayInputStream(pdu)), true);
  }

  // --- Apache Directory 

  @Benchmark
  public ByteBuffer apacheEncode() throws Exception {
    apacheOut.clear();
    return LdapEncoder.encodeMessage(apacheOut, apacheCodec, apacheMessage);
  }

  @Benchmark
  public Message apacheDecode() throws Exception {
    LdapMessageContainer<Message> container = new LdapMessageContainer<>(apacheCodec);
    Asn1Decoder.decode(ByteBuffer.wrap(pdu), container);
    return container.getMessage();
  }

  // --- OpenDJ 

  @Benchmark
  public int opendjEncode() throws Exception {
    opendjOut.clear();
    opendjWriter.writeSearchResultEntry(ID, opendjEntry);
    return opendjOut.length();
  }

  @Benchmark
  public Object opendjDecode() throws Exception {
    Object[] out = new Object[1];
    LDAP.getReader(ASN1.getReader(pdu), opendjOptions).readMessage(
        new AbstractLDAPMessageHandler() {
          @Override
          public void searchResultEntry(int messageID, SearchResultEntry entry) {
            out[0] = entry;
          }
        });
    return out[0];
  }

  // --- Bouncy Castle (element tree) 

  @Benchmark
  public byte[] bcEncode() throws Exception {
    ASN1EncodableVector list = new ASN1EncodableVector(attrs.size());
    for (EntryShapes.Attr a : attrs) {
      ASN1EncodableVector values = new ASN1EncodableVector(a.values().size());
      for (byte[] v : a.values()) {
        values.add(new DEROctetString(v));
      }
      list.add(new DLSequence(new ASN1Encodable[] {
          new DEROctetString(EntryShapes.utf8(a.name())), new DLSet(values)}));
    }
    DLSequence op = new DLSequence(new ASN1Encodable[] {
        new DEROctetString(EntryShapes.utf8(EntryShapes.DN)), new DLSequence(list)});
    return new DLSequence(new ASN1Encodable[] {new ASN1Integer(ID),
        new DLTaggedObject(false, BERTags.APPLICATION, 4, op)}).getEncoded();
  }

  @Benchmark
  public int bcDecode(Blackhole bh) throws Exception {
    ASN1Sequence msg = (ASN1Sequence) ASN1Primitive.fromByteArray(pdu);
    ASN1TaggedObject tagged = (ASN1TaggedObject) msg.getObjectAt(1);
    ASN1Sequence op = (ASN1Sequence) tagged.getBaseUniversal(false, BERTags.SEQUENCE);
    ASN1Sequence list = (ASN1Sequence) op.getObjectAt(1);
    int n = 0;
    for (ASN1Encodable e : list) {
      ASN1Sequence a = (ASN1Sequence) e;
      String name = new String(((ASN1OctetString) a.getObjectAt(0)).getOctets(),
          java.nio.charset.StandardCharsets.UTF_8);
      for (ASN1Encodable v : (ASN1Set) a.getObjectAt(1)) {
        byte[] value = ((ASN1OctetString) v).getOctets();
        if (bh != null) {
          bh.consume(value);
        }
      }
      if (bh != null) {
        bh.consume(name);
      }
      n++;
    }
    return n;
  }
}
