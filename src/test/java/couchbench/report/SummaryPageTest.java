package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryPageTest {

  private static final Table TABLE = Table.of("batch <size>", "docs/s").row(1, 16.04).row(1024, 612.345)
      .row("<b>&\"", null);
  private static final LineChart CHART = LineChart.titled("docs/s against batch size")
      .axes("batch size", "docs/s").logX()
      .series("T=1", List.of(1, 1024), List.of(16.04, 612.345))
      .series("T=2", List.of(1, 1024), List.of(20.0, 950.0));
  private static final SummaryPage PAGE = SummaryPage.titled("BulkInsert <b>&\"")
      .line("target http://127.0.0.1:5984")
      .warning("documents counted: 10 < 12")
      .table("Docs per second", TABLE)
      .chart("Docs/s against batch size!", CHART)
      .link("Gatling report", "index.html");

  @TempDir
  Path folder;

  @Test
  void shouldScrollAWideTableInsideItsOwnBoxNotThePage() {
    String html = SummaryPage.titled("siege").table("figures", TABLE).toHtml();

    assertTrue(html.contains("<div class=\"wide\">\n<table>"), html);
    assertTrue(html.contains(".wide { max-width: 100%; overflow-x: auto; }"), "the box scrolls sideways");
  }

  @Test
  void shouldWriteEachOfSeveralChartsPngAndTheNumbersOfAllInOneCsvUnderTheNote() throws IOException {
    LineChart t2 = LineChart.titled("T=2").axes("batch size", "docs/s").series("T=2", List.of(1), List.of(20.0));

    SummaryPage.titled("BulkInsert").charts("time", List.of(CHART, t2), "one chart per T").writeTo(folder);

    assertTrue(Files.exists(folder.resolve("time-1.png")) && Files.exists(folder.resolve("time-2.png")));
    assertEquals(CHART.data().append(t2.data()).toCsv(), Files.readString(folder.resolve("time.csv")));
    String html = Files.readString(folder.resolve("summary.html"));
    assertEquals(2, html.split("<img ", -1).length - 1, "both charts embedded");
    assertTrue(html.contains("one chart per T"), "the note");
  }

  @Test
  void shouldWriteThePageATableCsvAndAChartPngWithItsCsv() throws IOException {
    Path html = PAGE.writeTo(folder.resolve("run"));

    assertEquals(folder.resolve("run/summary.html"), html);
    assertEquals(PAGE.toHtml(), Files.readString(html));
    assertEquals(TABLE.toCsv(), Files.readString(folder.resolve("run/docs-per-second.csv")));
    assertEquals(CHART.data().toCsv(), Files.readString(folder.resolve("run/docs-s-against-batch-size.csv")));
    byte[] png = Files.readAllBytes(folder.resolve("run/docs-s-against-batch-size.png"));
    assertEquals("PNG", new String(png, 1, 3, "US-ASCII"));
    assertArrayEquals(png, embeddedImage(Files.readString(html)));
  }

  @Test
  void shouldShowTheOpeningParagraphsThenTheChartsThenTheTablesAndTheRest() {
    String html = SummaryPage.titled("BulkInsert")
        .line("Target: CouchDB at http://127.0.0.1:5984")
        .warning("WARNING: counts differ")
        .table("Docs per second", TABLE)
        .line("After the table")
        .chart("Docs/s against batch size", CHART)
        .link("Gatling report", "index.html")
        .chart("Time to create the documents", CHART)
        .toHtml();

    List<Integer> order = List.of(html.indexOf("Target: CouchDB"), html.indexOf("WARNING: counts differ"),
        html.indexOf("Docs/s against batch size"), html.indexOf("Time to create the documents"),
        html.indexOf("Docs per second"), html.indexOf("After the table"), html.indexOf("Gatling report"));
    assertTrue(order.stream().allMatch(at -> at > 0), html);
    assertEquals(order.stream().sorted().toList(), order, "intro, charts, then the rest in the order added");
  }

  @Test
  void shouldShowTextAsItIsAndWriteItBesideThePage() throws IOException {
    SummaryPage page = SummaryPage.titled("ViewQuery")
        .text("httperf's figures", List.of("Total: connections 100", "Errors: <total> 0 & \"none\""));

    Path html = page.writeTo(folder);

    assertEquals("Total: connections 100\nErrors: <total> 0 & \"none\"\n",
        Files.readString(folder.resolve("httperf-s-figures.txt")));
    assertTrue(Files.readString(html).contains(
        "<pre>Total: connections 100\nErrors: &lt;total&gt; 0 &amp; &quot;none&quot;\n</pre>"));
    assertTrue(Files.readString(html).contains("<a href=\"httperf-s-figures.txt\">"));
  }

  @Test
  void shouldBeSelfContained() {
    String html = PAGE.toHtml();

    assertFalse(html.contains("<script"), "no script");
    assertFalse(Pattern.compile("(src|href)\\s*=\\s*\"(https?:)?//").matcher(html).find(), "nothing fetched or linked outside");
    assertFalse(html.contains("<link"), "no external style sheet");
    assertTrue(html.contains("<style>"), "inline style");
    assertTrue(html.contains("<img src=\"data:image/png;base64,"), "embedded chart");
    assertTrue(html.contains("<a href=\"index.html\">Gatling report</a>"));
    assertTrue(html.contains("<a href=\"docs-per-second.csv\">"));
  }

  @Test
  void shouldEscapeTitleCaptionsAndCells() {
    String html = PAGE.toHtml();

    assertTrue(html.contains("<title>BulkInsert &lt;b&gt;&amp;&quot;</title>"));
    assertTrue(html.contains("<h1>BulkInsert &lt;b&gt;&amp;&quot;</h1>"));
    assertTrue(html.contains("<th>batch &lt;size&gt;</th>"));
    assertTrue(html.contains("<td>&lt;b&gt;&amp;&quot;</td>"));
    assertTrue(html.contains("documents counted: 10 &lt; 12"));
    assertFalse(html.contains("<b>"), "no raw markup from text");
    for (List<String> row : TABLE.rows()) {
      for (String cell : row) {
        assertTrue(html.contains(">" + Html.escape(cell) + "</td>"), cell);
      }
    }
  }

  @Test
  void shouldGiveCaptionsThatSlugAlikeTheirOwnFiles() throws IOException {
    SummaryPage.titled("t").table("Rates", TABLE).table("rates!", Table.of("x").row(1)).table("<>", TABLE)
        .writeTo(folder);

    assertEquals(TABLE.toCsv(), Files.readString(folder.resolve("rates.csv")));
    assertEquals("x\n1\n", Files.readString(folder.resolve("rates-2.csv")));
    assertTrue(Files.exists(folder.resolve("table.csv")));
  }

  @Test
  void shouldRefuseLinksThatLeaveTheRunFolder() {
    for (String href : List.of("http://example.com/", "https://x/y", "//host/x", "javascript:alert(1)", "")) {
      assertThrows(IllegalArgumentException.class, () -> PAGE.link("x", href), href);
    }
  }

  private static byte[] embeddedImage(String html) {
    Matcher m = Pattern.compile("data:image/png;base64,([A-Za-z0-9+/=]+)\"").matcher(html);
    assertTrue(m.find(), "embedded image");
    return Base64.getDecoder().decode(m.group(1));
  }
}
