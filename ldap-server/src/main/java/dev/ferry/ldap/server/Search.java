package dev.ferry.ldap.server;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.SortControl;
import dev.ferry.ldap.VirtualListView;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.concurrent.TimeUnit;

/**
 * One search request (RFC 4511 section 4.5): finds the base, walks its scope in key order,
 * writes each entry the filter and the access rules let through, and ends with the result, under
 * the size and time limits and, with the paged results control (RFC 2696), one page at a time.
 * With the sort control (RFC 2891) the entries are gathered and sorted first ({@link Sorting}),
 * then written whole, a page at a time, or as the window a virtual list view asks for.
 */
final class Search {
  /** Filter elements evaluated between looks at the clock, about. */
  private static final int CLOCK_EVERY = 64;
  private static final LdapResult SUCCESS = LdapResult.of(ResultCode.SUCCESS);

  private final Dsa dsa;
  private final Connection connection;
  private final int id;
  private final SearchRequest request;
  private final List<Control> controls;
  private volatile boolean abandoned;

  private Directory.View store; // while the search runs
  private Selection selection;
  private FilterMatcher matcher;
  private long deadline;
  private int sizeLimit;
  private int pageSize;
  private int returned;
  private int walked;
  /** Candidates passed over: out of the search's scope. */
  private int skipped;
  private int clockEvery;
  private int maxExamined;
  private String examinedLimit;
  private String lastKey;
  /** The id of the last entry written, when the walk is over candidates (in id order). */
  private long lastId;
  /** The id of the candidate being visited. */
  private long visitingId;
  /** Whether the walk went over candidates; null if it did not run. */
  private Boolean walkedIndexed;
  private boolean pageFull;
  private LdapResult outcome;
  private Sorting sorting; // with the sort control
  private VirtualListView listView; // with the virtual list view control
  private VirtualListView.Result viewResult;

  Search(Dsa dsa, Connection connection, int id, SearchRequest request, List<Control> controls) {
    this.dsa = dsa;
    this.connection = connection;
    this.id = id;
    this.request = request;
    this.controls = controls;
  }

  int messageId() {
    return id;
  }

  /** Stops the search at the next entry; no result is sent (RFC 4511 section 4.11). */
  void abandon() {
    abandoned = true;
  }

  /** The entries sent so far. */
  int returned() {
    return returned;
  }

  /** Runs the search and sends its result, unless it was abandoned; returns it, or null. */
  LdapResult run() throws IOException {
    LdapResult result;
    List<Control> response = new ArrayList<>();
    Paging paging = null;
    try {
      paging = paging();
      sortControls(paging);
      if (listView != null && sorting == null) {
        response.add(new VirtualListView.Result(0, 0, VirtualListView.SORT_CONTROL_MISSING,
            null).toControl());
        result = LdapResult.of(ResultCode.VIRTUAL_LIST_VIEW_ERROR, "Sort control is required"
            + " with VLV");
      } else {
        result = execute(paging);
        if (sorting != null) {
          response.add(new SortControl.Result(result.resultCode(), null).toControl());
        }
        if (viewResult != null) {
          response.add(viewResult.toControl());
        }
        if (paging != null) {
          response.add(paging.responseControl(connection, this, pageFull
              && outcome == null));
        }
      }
    } catch (OperationException e) {
      result = e.result;
    } catch (StoreException e) {
      result = Operations.storeFailure(e);
    }
    if (abandoned) {
      return null;
    }
    connection.sendDone(id, result, response);
    return result;
  }

  private Paging paging() throws OperationException {
    for (Control c : controls) {
      if (PagedResults.OID.equals(c.oid())) {
        try {
          return new Paging(PagedResults.from(c), connection);
        } catch (BerException e) {
          throw new OperationException(ResultCode.PROTOCOL_ERROR, "paged results control: "
              + e.getMessage());
        }
      }
    }
    return null;
  }

  /**
   * Reads the sort and virtual list view controls, as slapd's sssvlv does: a sort key's errors
   * first, then too many keys, then a view asked for with paging.
   */
  private void sortControls(Paging paging) throws OperationException {
    for (Control c : controls) {
      try {
        if (SortControl.OID.equals(c.oid())) {
          sorting = Sorting.of(SortControl.from(c), dsa.schema);
        } else if (VirtualListView.OID.equals(c.oid())) {
          listView = VirtualListView.from(c);
        }
      } catch (BerException e) {
        throw new OperationException(ResultCode.PROTOCOL_ERROR, c.oid() + " control: "
            + e.getMessage());
      }
    }
    if (sorting != null && listView != null && paging != null) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "VLV incompatible with"
          + " PagedResults");
    }
  }

  private LdapResult execute(Paging paging) throws OperationException, IOException {
    try (Directory.View v = dsa.directory.read()) {
      store = v;
      return execute(v, paging);
    } finally {
      store = null;
    }
  }

  private LdapResult execute(Directory.View v, Paging paging)
      throws OperationException, IOException {
    selection = Selection.of(request.attributes(), dsa.schema);
    matcher = new FilterMatcher(dsa.schema, v, dsa.factory.isChecking());
    long limitMillis = dsa.limits.maxSearchTimeMillis();
    if (request.timeLimit() > 0) {
      limitMillis = Math.min(limitMillis, request.timeLimit() * 1000L);
    }
    deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
    boolean root = connection.isRoot();
    sizeLimit = root ? Integer.MAX_VALUE : dsa.limits.maxSearchResults();
    maxExamined = root ? Integer.MAX_VALUE : dsa.limits.maxEntriesExamined();
    examinedLimit = "LdapServerLimits.maxEntriesExamined";
    clockEvery = Math.max(1, CLOCK_EVERY / elements(request.filter()));
    if (request.sizeLimit() > 0) {
      sizeLimit = Math.min(sizeLimit, request.sizeLimit() - (paging == null ? 0
          : paging.state.returned));
    }
    if (paging != null) {
      if (paging.size == 0) {
        paging.state.done = true; // the client abandons the paged search (RFC 2696 section 3)
        return LdapResult.of(ResultCode.SUCCESS);
      }
      pageSize = paging.size;
      lastKey = paging.state.lastKey;
      lastId = paging.state.lastId;
    }
    if (sorting == null) {
      walk(paging);
    } else {
      sorted(paging);
    }
    if (paging != null) {
      paging.state.returned += returned;
    }
    return outcome != null ? outcome : SUCCESS;
  }

  private void walk(Paging paging) throws OperationException, IOException {
    String base = request.baseObject();
    SearchScope scope = request.scope();
    if (base.isEmpty() && scope == SearchScope.BASE_OBJECT) {
      offer(dsa.rootDse());
      return;
    }
    String baseKey = "";
    if (!base.isEmpty()) {
      baseKey = connection.key(base);
      if (baseKey.equals(dsa.subschemaKey)) {
        if (scope == SearchScope.BASE_OBJECT) {
          offer(dsa.subschema);
        }
        return;
      }
      StoredEntry e = store.get(baseKey);
      if (e == null || !connection.canSee(e)) {
        throw store.noSuchObject(Updates.parseDn(base), connection::canSee);
      }
    }
    String after = paging != null ? paging.state.lastKey : null;
    long afterId = paging != null ? paging.state.lastId : 0;
    Boolean indexed = paging != null ? paging.state.indexed : null;
    IOException[] failure = new IOException[1];
    Predicate<StoredEntry> visitor = e -> {
      try {
        return offer(e);
      } catch (IOException io) {
        failure[0] = io;
        return false;
      }
    };
    // A paged search goes on as its first page went: over candidates in id order, or over
    // the scope in key order.
    Candidates candidates = scope == SearchScope.BASE_OBJECT || Boolean.FALSE.equals(indexed)
        ? null : store.plan(request.filter(), maxExamined);
    if (candidates == null && Boolean.TRUE.equals(indexed)) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "the indexes no longer"
          + " narrow this paged search's filter (the directory changed): search again");
    }
    walkedIndexed = candidates != null && store.scan(baseKey, scope, afterId, candidates,
        (candidate, e) -> {
          visitingId = candidate;
          return e != null ? visitor.test(e) : inTime();
        });
    if (!walkedIndexed) {
      unindexed(scope);
      store.scan(baseKey, scope, after, visitor);
    }
    if (failure[0] != null) {
      throw failure[0];
    }
  }

  /**
   * A sorted search: gathers and sorts the matching entries (or takes those a paged search
   * sorted before), then writes a page, the view's window, or all of them.
   */
  private void sorted(Paging paging) throws OperationException, IOException {
    List<String> keys;
    int from;
    int to;
    if (paging != null && paging.state.sorted != null) {
      keys = paging.state.sorted;
      from = paging.state.position;
      to = Math.min(keys.size(), from + pageSize);
    } else {
      walk(paging);
      if (outcome != null) {
        return; // a limit ended the search before anything was sorted
      }
      keys = sorting.sorted();
      from = 0;
      to = paging != null ? Math.min(keys.size(), pageSize) : keys.size();
      if (listView != null) {
        Sorting.Window w = sorting.window(listView);
        viewResult = w.result();
        if (viewResult.result() != 0) {
          outcome = LdapResult.of(ResultCode.VIRTUAL_LIST_VIEW_ERROR, "virtual list view: "
              + (viewResult.result() == VirtualListView.OFFSET_RANGE_ERROR
              ? "offset past the list" : "the target value cannot be read"));
          return;
        }
        from = w.from();
        to = w.to();
      }
    }
    for (int i = from; i < to && write(store.get(keys.get(i))); i++) {
      // write stops at the size limit or an abandon
    }
    if (paging != null) {
      paging.state.sorted = keys;
      paging.state.position = to;
      pageFull = to < keys.size();
    }
  }

  /**
   * For a candidate out of the search's scope: false to stop the walk if the search was
   * abandoned or its time is up (checked as often as for the entries it offers).
   */
  private boolean inTime() {
    if (abandoned) {
      return false;
    }
    if (++skipped % clockEvery == 0 && System.nanoTime() - deadline > 0) {
      outcome = LdapResult.of(ResultCode.TIME_LIMIT_EXCEEDED, "time limit exceeded");
      return false;
    }
    return true;
  }

  /** Returns false to stop the walk. */
  private boolean offer(StoredEntry e) throws IOException {
    if (abandoned) {
      return false;
    }
    if (++walked % clockEvery == 0 && System.nanoTime() - deadline > 0) {
      outcome = LdapResult.of(ResultCode.TIME_LIMIT_EXCEEDED, "time limit exceeded");
      return false;
    }
    if (walked > maxExamined) {
      outcome = LdapResult.of(ResultCode.ADMIN_LIMIT_EXCEEDED,
          examinedLimit + " exceeded: " + walked + " > " + maxExamined
          + (examinedLimit.endsWith("Anonymous") ? " (no index narrows the filter)" : ""));
      return false;
    }
    if (!readable(e)) {
      return true;
    }
    boolean secrets = connection.canSeeSecrets(e);
    if (!matcher.matches(request.filter(), e, secrets)) {
      return true;
    }
    if (sorting != null) {
      sorting.add(e);
      return true;
    }
    return write(e, secrets);
  }

  /** Writes a sorted entry (null if it is gone); returns false to stop. */
  private boolean write(StoredEntry e) throws IOException {
    return e == null || (!abandoned && write(e, connection.canSeeSecrets(e)));
  }

  /** Writes an entry within the size limit; returns false to stop. */
  private boolean write(StoredEntry e, boolean secrets) throws IOException {
    if (returned >= sizeLimit) {
      outcome = LdapResult.of(ResultCode.SIZE_LIMIT_EXCEEDED, "size limit exceeded");
      return false;
    }
    boolean children = selection.hasSubordinates && store.hasChildren(e);
    connection.writeEntry(id, e, selection, request.typesOnly(), children, secrets);
    returned++;
    lastKey = e.key;
    lastId = visitingId;
    pageFull = pageSize > 0 && returned == pageSize;
    return !pageFull;
  }

  /** An anonymous search that walks its whole scope may look at fewer entries. */
  private void unindexed(SearchScope scope) {
    int limit = dsa.limits.maxUnindexedEntriesAnonymous();
    if (scope != SearchScope.BASE_OBJECT && connection.boundKey().isEmpty()
        && limit < maxExamined) {
      maxExamined = limit;
      examinedLimit = "LdapServerLimits.maxUnindexedEntriesAnonymous";
    }
  }

  /** Returns the number of elements of a filter: what matching it costs, roughly. */
  static int elements(Filter f) {
    return switch (f) {
      case Filter.And and -> 1 + elements(and.filters());
      case Filter.Or or -> 1 + elements(or.filters());
      case Filter.Not not -> 1 + elements(not.filter());
      case Filter.Substrings s -> 1 + s.any().size();
      default -> 1;
    };
  }

  private static int elements(List<Filter> filters) {
    int n = 0;
    for (Filter f : filters) {
      n += elements(f);
    }
    return n;
  }

  /** The root DSE and the subschema subentry are public: clients need them to connect. */
  private boolean readable(StoredEntry e) {
    return e.isRoot() || e == dsa.subschema || dsa.access.canRead(connection.boundKey(), e);
  }

  /** The paged results control of this request and the state it continues. */
  private static final class Paging {
    final int size;
    final Connection.PagedState state;

    Paging(PagedResults control, Connection connection) throws OperationException {
      this.size = control.size();
      this.state = connection.pagedState(control.cookie());
    }

    Control responseControl(Connection connection, Search page, boolean more) {
      ByteString cookie = ByteString.EMPTY;
      if (more && !state.done) {
        state.lastKey = page.lastKey;
        state.lastId = page.lastId;
        if (page.walkedIndexed != null) {
          state.indexed = page.walkedIndexed;
        }
        cookie = connection.keep(state);
      } else {
        connection.forget(state);
      }
      return new PagedResults(0, cookie).toControl(false);
    }
  }
}
