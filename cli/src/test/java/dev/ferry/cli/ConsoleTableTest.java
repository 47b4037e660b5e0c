package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ConsoleTableTest {
  @Test
  void columnsAreAsWideAsTheirWidestCellTextLeftNumbersRight() {
    ConsoleTable table = new ConsoleTable().column("size", ConsoleTable.Align.RIGHT)
        .column("encoding", ConsoleTable.Align.LEFT).column("p50 ms", ConsoleTable.Align.RIGHT)
        .row("1 KiB", "MTOM", "0.25").row("12 MiB", "base64", "130.40");
    StringWriter out = new StringWriter();
    table.print(new PrintWriter(out));
    assertThat(out.toString().split("\n")).containsExactly(
        "  size  encoding  p50 ms",
        "------  --------  ------",
        " 1 KiB  MTOM        0.25",
        "12 MiB  base64    130.40");
    assertThat(table.rowCount()).isEqualTo(2);
  }

  @Test
  void aRowMustFillEveryColumnAndColumnsComeFirst() {
    ConsoleTable table = new ConsoleTable().column("a", ConsoleTable.Align.LEFT)
        .column("b", ConsoleTable.Align.LEFT);
    assertThatThrownBy(() -> table.row("only one")).hasMessageContaining("1 cells")
        .hasMessageContaining("2 columns");
    table.row("x", "y");
    assertThatThrownBy(() -> table.column("c", ConsoleTable.Align.LEFT))
        .isInstanceOf(IllegalStateException.class);
  }
}
