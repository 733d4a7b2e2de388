package couchbench.report;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One block of a summary page, in the order added; each writes its HTML and its files. */
sealed interface Block {

  int CHART_WIDTH = 900;
  int CHART_HEIGHT = 500;

  /**
   * Appends the block's HTML and puts the files it needs beside the page.
   *
   * @param html the page so far
   * @param files file name to content, for the run folder
   * @param slugs file names (without extension) already taken on this page
   */
  void render(StringBuilder html, Map<String, byte[]> files, Set<String> slugs);

  /** A paragraph, highlighted when it is a warning. */
  record Text(String text, boolean warning) implements Block {
    @Override
    public void render(StringBuilder html, Map<String, byte[]> files, Set<String> slugs) {
      html.append(warning ? "<p class=\"warning\">Warning: " : "<p>").append(Html.escape(text)).append("</p>\n");
    }
  }

  /** A link to another file of the run. */
  record Link(String text, String href) implements Block {
    @Override
    public void render(StringBuilder html, Map<String, byte[]> files, Set<String> slugs) {
      html.append("<p>").append(Html.link(text, href)).append("</p>\n");
    }
  }

  /** A table, with its CSV beside the page; one that leads stays with the page's opening lines, above the charts. */
  record TableBlock(String caption, Table table, boolean leads) implements Block {
    @Override
    public void render(StringBuilder html, Map<String, byte[]> files, Set<String> slugs) {
      String csv = unique(slugs, Html.slug(caption, "table")) + ".csv";
      files.put(csv, table.toCsv().getBytes(StandardCharsets.UTF_8));
      Html.appendTable(html, caption, table);
      Html.appendFiles(html, "p", csv);
      html.append('\n');
    }
  }

  /** Lines of fixed-width text, e.g. a tool's own output format, with a .txt file beside the page. */
  record Preformatted(String caption, String text) implements Block {
    @Override
    public void render(StringBuilder html, Map<String, byte[]> files, Set<String> slugs) {
      String txt = unique(slugs, Html.slug(caption, "text")) + ".txt";
      files.put(txt, text.getBytes(StandardCharsets.UTF_8));
      html.append("<figure>\n<figcaption>").append(Html.escape(caption)).append("</figcaption>\n<pre>")
          .append(Html.escape(text)).append("</pre>\n");
      Html.appendFiles(html, "p", txt);
      html.append("\n</figure>\n");
    }
  }

  /**
   * A chart, or several drawn alike (small multiples: one per thread count, say), embedded one under the other with a
   * note saying what they draw; each chart's PNG beside the page ({@code <slug>.png}, or {@code <slug>-1.png},
   * {@code <slug>-2.png}, ... for several) and the numbers behind all of them in one CSV ({@code <slug>.csv}).
   */
  record ChartBlock(String caption, List<Chart> charts, String note) implements Block {
    @Override
    public void render(StringBuilder html, Map<String, byte[]> files, Set<String> slugs) {
      String slug = unique(slugs, Html.slug(caption, "chart"));
      Table data = charts.get(0).data();
      for (Chart chart : charts.subList(1, charts.size())) {
        data = data.append(chart.data());
      }
      files.put(slug + ".csv", data.toCsv().getBytes(StandardCharsets.UTF_8));
      List<byte[]> pngs = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < charts.size(); i++) {
        // Rendered once: the same bytes go to the PNG file and into the page.
        byte[] png = charts.get(i).png(CHART_WIDTH, CHART_HEIGHT);
        String name = charts.size() == 1 ? slug + ".png" : slug + "-" + (i + 1) + ".png";
        files.put(name, png);
        pngs.add(png);
        names.add(name);
      }
      names.add(slug + ".csv");
      Html.appendFigure(html, caption, note, pngs, CHART_WIDTH, CHART_HEIGHT, names.toArray(String[]::new));
    }
  }

  // Two captions may slug alike; the second file must not overwrite the first.
  private static String unique(Set<String> taken, String slug) {
    String candidate = slug;
    for (int n = 2; !taken.add(candidate); n++) {
      candidate = slug + "-" + n;
    }
    return candidate;
  }
}
