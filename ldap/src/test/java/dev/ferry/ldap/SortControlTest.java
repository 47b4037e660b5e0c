package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.asn1.BerException;
import dev.ferry.bytes.ByteString;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sort (RFC 2891) and virtual list view controls: round trips and malformed values. */
class SortControlTest {
  @Test
  void sortControlsRoundTrip() throws BerException {
    SortControl sort = new SortControl(List.of(new SortControl.Key("sn", null, false),
        new SortControl.Key("uidNumber", "integerOrderingMatch", true)));
    assertEquals(sort, SortControl.from(sort.toControl(true)));
    SortControl.Result result = new SortControl.Result(ResultCode.NO_SUCH_ATTRIBUTE, "shoeSize");
    assertEquals(result, SortControl.Result.from(result.toControl()));
    SortControl.Result ok = new SortControl.Result(ResultCode.SUCCESS, null);
    assertEquals(ok, SortControl.Result.from(ok.toControl()));
  }

  @Test
  void viewControlsRoundTrip() throws BerException {
    VirtualListView byOffset = VirtualListView.byOffset(2, 9, 40, 100);
    assertEquals(byOffset, VirtualListView.from(byOffset.toControl(true)));
    VirtualListView byValue = VirtualListView.byValue(0, 5, ByteString.encodeUtf8("jensen"));
    assertEquals(byValue, VirtualListView.from(byValue.toControl(false)));
    VirtualListView.Result result = new VirtualListView.Result(40, 100, 0,
        ByteString.encodeUtf8("ctx"));
    assertEquals(result, VirtualListView.Result.from(result.toControl()));
  }

  @Test
  void malformedValuesAreRefused() {
    // SEQUENCE OF with no key; a value with a byte after it; no value at all
    assertThrows(BerException.class, () -> SortControl.from(new Control(SortControl.OID, true,
        ByteString.of((byte) 0x30, (byte) 0x00))));
    Control sort = new SortControl(List.of(new SortControl.Key("sn", null, false)))
        .toControl(true);
    ByteString longer = ByteString.decodeHex(sort.value().hex() + "00");
    assertThrows(BerException.class, () -> SortControl.from(new Control(SortControl.OID, true,
        longer)));
    assertThrows(BerException.class, () -> VirtualListView.from(new Control(
        VirtualListView.OID, true, null)));
    assertThrows(IllegalArgumentException.class, () -> VirtualListView.from(sort));
  }
}
