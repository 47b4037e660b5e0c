package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.SearchScope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A full scan of a directory for what a crash could break: every entry whole (its encoding
 * reads to the end, its key is its DN's), every parent there, its id naming it back, every
 * index key an entry has posted, and every posting naming an entry that has that key. Returns
 * what is wrong.
 */
final class StoreCheck {
  private StoreCheck() {}

  static List<String> problems(Dsa dsa) {
    List<String> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    try (Directory.View v = dsa.directory.read()) {
      v.scan("", SearchScope.WHOLE_SUBTREE, null, e -> {
        keys.add(e.key);
        checkEntry(dsa, v, e, out);
        return out.size() < 20;
      });
      if (keys.size() != v.size()) {
        out.add("the store counts " + v.size() + " entries, a scan finds " + keys.size());
      }
      Iterator<ByteString> all = v.read.indexKeys(ByteString.EMPTY, ByteString.of((byte) -1),
          true);
      while (all.hasNext() && out.size() < 20) {
        ByteString k = all.next();
        for (var p = v.read.posted(List.of(k), 0); p.hasNext(); ) {
          long id = p.nextLong();
          StoredEntry e = v.read.entry(id);
          if (e == null || !dsa.directory.indexes.keys(e).contains(k)) {
            out.add("index key " + k + " names id " + id + (e == null ? ", which is missing"
                : " (" + e.dnText() + "), which does not have it"));
          }
        }
      }
    }
    return out;
  }

  private static void checkEntry(Dsa dsa, Directory.View v, StoredEntry e, List<String> out) {
    try {
      e.allAttributes(); // reads every element of the encoding
      Dn dn = Dn.parse(e.dnText());
      if (!dsa.schema.normalize(dn).equals(e.key)) {
        out.add(e.dnText() + " is filed under another key");
      }
      if (dn.rdns().size() > 1 && v.get(dn.parent()) == null
          && !dsa.directory.mayBeRoot(e.key)) {
        out.add(e.dnText() + " has no parent");
      }
      long id = v.read.id(e.key);
      StoredEntry byId = id > 0 ? v.read.entry(id) : null;
      if (byId == null || !byId.key.equals(e.key)) {
        out.add(e.dnText() + " has id " + id + ", which names " + (byId == null ? "nothing"
            : byId.dnText()));
      }
      for (ByteString k : dsa.directory.indexes.keys(e)) {
        if (!v.read.isPosted(k, id)) {
          out.add(e.dnText() + " is not posted under index key " + k);
        }
      }
    } catch (RuntimeException x) {
      out.add(e.key + " is torn: " + x);
    }
  }
}
