package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.SearchScope;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What the server allocates to answer a base search for a whole entry: the request's decoding
 * and the search's bookkeeping, never a copy or an encoding of the entry (it is written from its
 * stored bytes). Measured over the whole JVM (virtual threads allocate on their carriers'
 * counters) around a client that allocates nothing per search.
 */
class SearchAllocationTest {
  static final String DN = "uid=user1,ou=people,dc=example,dc=com";

  /** An entry of about {@code 52 * count} bytes: {@code count} single-valued attributes. */
  static LdifRecord.Entry entry(int count, int valueBytes) {
    Random r = new Random(42);
    List<Attribute> attributes = new ArrayList<>();
    attributes.add(Attribute.of("objectClass", "extensibleObject"));
    attributes.add(Attribute.of("uid", "user1"));
    for (int i = 0; i < count; i++) {
      char[] v = new char[valueBytes];
      for (int j = 0; j < v.length; j++) {
        v[j] = (char) ('a' + r.nextInt(26));
      }
      attributes.add(Attribute.of("attribute" + i, new String(v)));
    }
    return new LdifRecord.Entry(DN, attributes);
  }

  static long allocatedByAllThreads() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getTotalThreadAllocatedBytes();
  }

  @Test
  void aBaseSearchAllocatesLessThanTheEntrysSize() throws Exception {
    LdifRecord.Entry e = entry(80, 32);
    try (LdapServer server = LdapServer.builder().records(List.of(e)).start()) {
      ByteString request = LdapCodec.encode(LdapMessage.of(7, SearchRequest.of(DN,
          SearchScope.BASE_OBJECT, Filter.present("objectClass"))));
      try (RawClient c = new RawClient(server.port())) {
        for (int i = 0; i < 20_000; i++) { // warm up: compile the path
          c.send(request);
          c.read();
          c.read();
        }
        c.send(request);
        int entryBytes = c.read();
        c.read();
        int n = 5_000;
        long before = allocatedByAllThreads();
        for (int i = 0; i < n; i++) {
          c.send(request);
          c.read();
          c.read();
        }
        long perSearch = (allocatedByAllThreads() - before) / n;
        assertTrue(entryBytes > 4000, "entry of " + entryBytes + " bytes");
        assertTrue(perSearch < entryBytes, perSearch + " bytes allocated per search of a "
            + entryBytes + "-byte entry");
        System.out.println("allocated per base search of a " + entryBytes + "-byte entry: "
            + perSearch + " bytes");
      }
    }
  }
}
