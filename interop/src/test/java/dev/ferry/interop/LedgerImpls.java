package dev.ferry.interop;

import jakarta.jws.WebService;
import jakarta.xml.ws.Holder;

/**
 * Implementations of the ledger contract, one per generated interface (CXF's wsdl2java, Metro's
 * wsimport), doing the same: a deposit's balance depends on the amount and the tenant header,
 * an unknown account and an amount over the limit are the two declared faults, a statement
 * fills two OUT-only parameters, a note is echoed (bare).
 */
final class LedgerImpls {
  static final String NS = "urn:ferry:ledger";
  static final String UNKNOWN = "nobody";
  static final long LIMIT = 1000;

  private LedgerImpls() {}

  static long balance(long amount, String tenant) {
    return 100 + amount + (tenant == null ? -1 : tenant.length());
  }

  /** CXF's generated interface, implemented. */
  @WebService(serviceName = "LedgerService", portName = "LedgerPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.cxfledger.Ledger")
  public static class Cxf implements dev.ferry.interop.cxfledger.Ledger {
    @Override
    public String echoNote(String note) {
      return "echo: " + note;
    }

    @Override
    public dev.ferry.interop.cxfledger.DepositResponse deposit(
        dev.ferry.interop.cxfledger.Deposit parameters, String tenant)
        throws dev.ferry.interop.cxfledger.LimitExceeded_Exception,
        dev.ferry.interop.cxfledger.UnknownAccount_Exception {
      if (parameters.getAccount().equals(UNKNOWN)) {
        var f = new dev.ferry.interop.cxfledger.UnknownAccount();
        f.setAccount(parameters.getAccount());
        throw new dev.ferry.interop.cxfledger.UnknownAccount_Exception("unknown account", f);
      }
      if (parameters.getAmount() > LIMIT) {
        var f = new dev.ferry.interop.cxfledger.LimitExceeded();
        f.setLimit(LIMIT);
        f.setRequested(parameters.getAmount());
        throw new dev.ferry.interop.cxfledger.LimitExceeded_Exception("over the limit", f);
      }
      var r = new dev.ferry.interop.cxfledger.DepositResponse();
      r.setBalance(balance(parameters.getAmount(), tenant));
      return r;
    }

    @Override
    public void statement(String account, Holder<Integer> entries, Holder<Long> total)
        throws dev.ferry.interop.cxfledger.UnknownAccount_Exception {
      if (account.equals(UNKNOWN)) {
        var f = new dev.ferry.interop.cxfledger.UnknownAccount();
        f.setAccount(account);
        throw new dev.ferry.interop.cxfledger.UnknownAccount_Exception("unknown account", f);
      }
      entries.value = account.length();
      total.value = 42L;
    }
  }

  /** Metro's generated interface, implemented. */
  @WebService(serviceName = "LedgerService", portName = "LedgerPort", targetNamespace = NS,
      endpointInterface = "dev.ferry.interop.metroledger.Ledger")
  public static class Metro implements dev.ferry.interop.metroledger.Ledger {
    @Override
    public String echoNote(String note) {
      return "echo: " + note;
    }

    @Override
    public dev.ferry.interop.metroledger.DepositResponse deposit(
        dev.ferry.interop.metroledger.Deposit parameters, String tenant)
        throws dev.ferry.interop.metroledger.LimitExceeded_Exception,
        dev.ferry.interop.metroledger.UnknownAccount_Exception {
      if (parameters.getAccount().equals(UNKNOWN)) {
        var f = new dev.ferry.interop.metroledger.UnknownAccount();
        f.setAccount(parameters.getAccount());
        throw new dev.ferry.interop.metroledger.UnknownAccount_Exception("unknown account", f);
      }
      if (parameters.getAmount() > LIMIT) {
        var f = new dev.ferry.interop.metroledger.LimitExceeded();
        f.setLimit(LIMIT);
        f.setRequested(parameters.getAmount());
        throw new dev.ferry.interop.metroledger.LimitExceeded_Exception("over the limit", f);
      }
      var r = new dev.ferry.interop.metroledger.DepositResponse();
      r.setBalance(balance(parameters.getAmount(), tenant));
      return r;
    }

    @Override
    public void statement(String account, Holder<Integer> entries, Holder<Long> total)
        throws dev.ferry.interop.metroledger.UnknownAccount_Exception {
      if (account.equals(UNKNOWN)) {
        var f = new dev.ferry.interop.metroledger.UnknownAccount();
        f.setAccount(account);
        throw new dev.ferry.interop.metroledger.UnknownAccount_Exception("unknown account", f);
      }
      entries.value = account.length();
      total.value = 42L;
    }
  }
}
