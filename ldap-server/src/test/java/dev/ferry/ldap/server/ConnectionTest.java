package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import org.junit.jupiter.api.Test;

/** The connection's protocol: abandon, unbind, and what a misbehaving client gets. */
class ConnectionTest {
  static final String BASE = LdapServerLimitsTest.BASE;

  @Test
  void abandonStopsASearchWithoutAResult() throws Exception {
    try (LdapServer s = LdapServerLimitsTest.server(LdapServerLimits.builder()
        .maxSearchResults(10_000).build(), 4000, "x".repeat(2000));
        RawClient c = new RawClient(s.port(), 4096)) {
      c.send(LdapCodec.encode(LdapMessage.of(1, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.present("objectClass")))));
      c.read(); // the search is under way
      c.send(LdapCodec.encode(LdapMessage.of(2, new ProtocolOp.AbandonRequest(1))));
      c.send(LdapCodec.encode(LdapMessage.of(3, new ProtocolOp.ExtendedRequest(
          ProtocolOp.ExtendedRequest.WHO_AM_I, null))));
      int entries = 1;
      while (true) {
        LdapMessage m = LdapServerLimitsTest.readMessage(c);
        assertTrue(!(m.op() instanceof ProtocolOp.SearchResultDone), "an abandoned search"
            + " answered");
        if (m.messageId() == 3) {
          break;
        }
        entries++;
      }
      assertTrue(entries < 4001, entries + " entries arrived");
    }
  }

  @Test
  void garbageGetsANoticeOfDisconnectionWithTheOffset() throws Exception {
    try (LdapServer s = LdapServerLimitsTest.server(LdapServerLimits.DEFAULTS, 0);
        RawClient c = new RawClient(s.port())) {
      c.sendRaw(new byte[] {0x30, 0x03, 0x02, 0x01, 0x01, 0x30, 0x05, 0x04});
      LdapMessage notice = LdapServerLimitsTest.readMessage(c);
      assertEquals(0, notice.messageId());
      ProtocolOp.ExtendedResponse r = (ProtocolOp.ExtendedResponse) notice.op();
      assertEquals(Connection.NOTICE_OF_DISCONNECTION, r.name());
      assertEquals(ResultCode.PROTOCOL_ERROR, r.result().resultCode());
      assertTrue(r.result().diagnosticMessage().contains("at byte"),
          r.result().diagnosticMessage());
      assertTrue(c.isClosedByPeer());
    }
  }

  @Test
  void aResponseFromTheClientIsAProtocolError() throws Exception {
    try (LdapServer s = LdapServerLimitsTest.server(LdapServerLimits.DEFAULTS, 0);
        RawClient c = new RawClient(s.port())) {
      c.send(LdapCodec.encode(LdapMessage.of(5, new ProtocolOp.AddResponse(
          LdapResult.of(ResultCode.SUCCESS)))));
      LdapMessage notice = LdapServerLimitsTest.readMessage(c);
      assertEquals(ResultCode.PROTOCOL_ERROR, notice.op().result().resultCode());
      assertTrue(c.isClosedByPeer());
    }
  }

  @Test
  void unknownExtendedOperationsAndUnbind() throws Exception {
    try (LdapServer s = LdapServerLimitsTest.server(LdapServerLimits.DEFAULTS, 0);
        RawClient c = new RawClient(s.port())) {
      c.send(LdapCodec.encode(LdapMessage.of(1, new ProtocolOp.ExtendedRequest("1.2.3.4",
          null))));
      LdapMessage m = LdapServerLimitsTest.readMessage(c);
      assertEquals(1, m.messageId());
      assertEquals(ResultCode.PROTOCOL_ERROR, m.op().result().resultCode());
      c.send(LdapCodec.encode(LdapMessage.of(2, new ProtocolOp.UnbindRequest())));
      assertTrue(c.isClosedByPeer());
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (s.connectionCount() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(0, s.connectionCount());
    }
  }
}
