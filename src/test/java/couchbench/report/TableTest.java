package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void shouldQuoteCsvCellsOnlyWhereNeeded() {
    Table table = Table.of("name", "note").row("plain", "a,b").row("say \"hi\"", "two\nlines");

    assertEquals("name,note\nplain,\"a,b\"\n\"say \"\"hi\"\"\",\"two\nlines\"\n", table.toCsv());
  }

  @Test
  void shouldReadBackTheCellsOfALineItWrote() {
    Table table = Table.of("name", "note", "empty").row("plain", "a,b", "").row("say \"hi\"", "1.5", "");

    String[] lines = table.toCsv().split("\n");
    assertEquals(List.of("plain", "a,b", ""), Table.csvCells(lines[1]));
    assertEquals(List.of("say \"hi\"", "1.5", ""), Table.csvCells(lines[2]));
  }

  @Test
  void shouldFormatNumbersForReading() {
    Table table = Table.of("v").row(1234.5678).row(12.3456).row(0.001234).row(2.0).row(1e9)
        .row(-0.5).row(0.0).row(42).row(10_000_000_000L).row(new BigDecimal("3.14159")).row(1.5f)
        .row((Object) null).row(Double.NaN);

    assertEquals(List.of("1234.6", "12.3", "0.00123", "2", "1000000000", "-0.5", "0", "42",
        "10000000000", "3.14", "1.5", "", "NaN"), table.rows().stream().map(r -> r.get(0)).toList());
  }

  @Test
  void shouldNeverUseScientificNotation() {
    Table table = Table.of("v").row(1.0e-7).row(6.02e23);

    assertEquals("v\n0.0000001\n602000000000000000000000\n", table.toCsv());
  }

  @Test
  void shouldLeaveTheOriginalUnchangedWhenAddingARow() {
    Table empty = Table.of("a", "b");
    Table one = empty.row(1, 2);

    assertNotSame(empty, one);
    assertEquals(List.of(), empty.rows());
    assertEquals(List.of(List.of("1", "2")), one.rows());
    assertThrows(UnsupportedOperationException.class, () -> one.rows().add(List.of("x", "y")));
  }

  @Test
  void shouldRefuseARowOfTheWrongWidth() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Table.of("a", "b").row(1));

    assertTrue(e.getMessage().contains("expected: 2"), e.getMessage());
  }
}
