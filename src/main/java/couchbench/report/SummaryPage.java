package couchbench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A simulation's own summary: a self-contained {@code summary.html} (inline CSS, charts embedded
 * as data: URIs, so it opens offline) with a CSV beside it for every table and chart.
 * Immutable: every method returns a new page. The page opens with the paragraphs added before the first table, chart
 * or text block (what ran, against what, and warnings) and any leading table among them ({@link #leadingTable}: the
 * answer the page is read for), then shows every chart, then the rest, each in the order added: a reader sees the
 * picture before the numbers behind it.
 */
public final class SummaryPage {

  static final String FILE_NAME = "summary.html";

  private final String title;
  private final List<Block> blocks;

  private SummaryPage(String title, List<Block> blocks) {
    this.title = title;
    this.blocks = blocks;
  }

  /**
   * Starts an empty page.
   *
   * @param title the page title and heading
   * @return a new page
   */
  public static SummaryPage titled(String title) {
    return new SummaryPage(title, List.of());
  }

  /** @return the page's title */
  public String title() {
    return title;
  }

  /**
   * @param newTitle another title
   * @return this page under it
   */
  public SummaryPage retitled(String newTitle) {
    return new SummaryPage(newTitle, blocks);
  }

  /**
   * Adds a paragraph.
   *
   * @param text plain text, e.g. the run's parameters or target
   * @return a new page with the paragraph
   */
  public SummaryPage line(String text) {
    return with(new Block.Text(text, false));
  }

  /**
   * Adds a highlighted paragraph, for what the reader must not miss (e.g. counts that disagree).
   *
   * @param text plain text
   * @return a new page with the warning
   */
  public SummaryPage warning(String text) {
    return with(new Block.Text(text, true));
  }

  /**
   * Puts highlighted paragraphs first on the page, before everything added so far: warnings that concern the whole
   * run, e.g. a check that was turned off.
   *
   * @param texts plain text, in order
   * @return a new page with the warnings at its top
   */
  public SummaryPage warningsFirst(List<String> texts) {
    return first(texts, true);
  }

  /**
   * Puts paragraphs first on the page, before everything added so far: what a page built elsewhere is part of.
   *
   * @param texts plain text, in order
   * @return a new page with the paragraphs at its top
   */
  public SummaryPage linesFirst(List<String> texts) {
    return first(texts, false);
  }

  private SummaryPage first(List<String> texts, boolean highlighted) {
    List<Block> next = new ArrayList<>();
    texts.forEach(text -> next.add(new Block.Text(text, highlighted)));
    next.addAll(blocks);
    return new SummaryPage(title, List.copyOf(next));
  }

  /**
   * Adds a table, written beside the page as {@code <slug of caption>.csv}.
   *
   * @param caption the table's caption
   * @param table the numbers
   * @return a new page with the table
   */
  public SummaryPage table(String caption, Table table) {
    return with(new Block.TableBlock(caption, table, false));
  }

  /**
   * Adds a table that opens the page, after its first lines and before the charts: the answer the page is read for
   * (a run of variants' verdicts), which the charts then show round by round.
   *
   * @param caption the table's caption
   * @param table the numbers
   * @return a new page with the table
   */
  public SummaryPage leadingTable(String caption, Table table) {
    return with(new Block.TableBlock(caption, table, true));
  }

  /**
   * Adds lines of fixed-width text, shown as they are and written beside the page as
   * {@code <slug of caption>.txt}, e.g. figures laid out like another tool's output for a line by
   * line comparison.
   *
   * @param caption the block's caption
   * @param lines the lines, without line breaks
   * @return a new page with the text
   */
  public SummaryPage text(String caption, List<String> lines) {
    return with(new Block.Preformatted(caption, String.join("\n", lines) + "\n"));
  }

  /**
   * Adds a chart, embedded in the page and written beside it as {@code <slug>.png} and, with the
   * numbers behind it, {@code <slug>.csv}.
   *
   * @param caption the chart's caption
   * @param chart the chart
   * @return a new page with the chart
   */
  public SummaryPage chart(String caption, Chart chart) {
    return charts(caption, List.of(chart), "");
  }

  /**
   * Adds charts drawn alike under one caption, e.g. one per thread count where one chart would draw too many series,
   * or the chosen few of many series: embedded one under the other, each written beside the page as
   * {@code <slug>-1.png}, {@code <slug>-2.png}, ... (one alone as {@code <slug>.png}), the numbers behind all of them
   * as {@code <slug>.csv}.
   *
   * @param caption the charts' caption
   * @param charts the charts, at least one, whose numbers have the same columns
   * @param note what the charts draw of what, shown under the caption; empty for nothing
   * @return a new page with the charts
   * @throws IllegalArgumentException when there is no chart
   */
  public SummaryPage charts(String caption, List<? extends Chart> charts, String note) {
    if (charts.isEmpty()) {
      throw new IllegalArgumentException("no chart for '" + caption + "'");
    }
    return with(new Block.ChartBlock(caption, List.copyOf(charts), note));
  }

  /**
   * Adds a link to a file of the run, such as Gatling's {@code index.html}.
   *
   * @param text the link text
   * @param relativeHref a path relative to the page; absolute URLs are refused (the page stays offline)
   * @return a new page with the link
   */
  public SummaryPage link(String text, String relativeHref) {
    return with(new Block.Link(text, Html.relativeHref(relativeHref)));
  }

  /** @return the page's HTML, self-contained, every text escaped */
  public String toHtml() {
    return new String(files(FILE_NAME).get(FILE_NAME), StandardCharsets.UTF_8);
  }

  /**
   * Writes summary.html, a CSV per table, a PNG and a CSV per chart, into the folder (created if
   * missing); file names are slugs of the captions.
   *
   * @param folder the run folder
   * @return the path of summary.html
   * @throws UncheckedIOException if a file cannot be written
   */
  public Path writeTo(Path folder) {
    return writeTo(folder, FILE_NAME);
  }

  /**
   * Same, with the page under another name, e.g. compare.html.
   *
   * @param folder the folder
   * @param pageName the HTML file's name
   * @return the path of the page
   * @throws UncheckedIOException if a file cannot be written
   */
  public Path writeTo(Path folder, String pageName) {
    try {
      Files.createDirectories(folder);
      for (Map.Entry<String, byte[]> file : files(pageName).entrySet()) {
        Files.write(folder.resolve(file.getKey()), file.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing summary '" + title + "' to " + folder, e);
    }
    return folder.resolve(pageName);
  }

  private SummaryPage with(Block block) {
    List<Block> next = new ArrayList<>(blocks);
    next.add(block);
    return new SummaryPage(title, List.copyOf(next));
  }

  private List<Block> chartsFirst() {
    int intro = 0;
    while (intro < blocks.size() && (blocks.get(intro) instanceof Block.Text
        || blocks.get(intro) instanceof Block.TableBlock table && table.leads())) {
      intro++;
    }
    List<Block> ordered = new ArrayList<>(blocks.subList(0, intro));
    List<Block> rest = blocks.subList(intro, blocks.size());
    rest.stream().filter(block -> block instanceof Block.ChartBlock).forEach(ordered::add);
    rest.stream().filter(block -> !(block instanceof Block.ChartBlock)).forEach(ordered::add);
    return ordered;
  }

  private Map<String, byte[]> files(String pageName) {
    Map<String, byte[]> files = new LinkedHashMap<>();
    Set<String> slugs = new HashSet<>();
    StringBuilder html = Html.start(title);
    chartsFirst().forEach(block -> block.render(html, files, slugs));
    html.append("</body>\n</html>\n");
    files.put(pageName, html.toString().getBytes(StandardCharsets.UTF_8));
    return files;
  }
}
