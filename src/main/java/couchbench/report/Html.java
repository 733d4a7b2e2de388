package couchbench.report;

import java.text.Normalizer;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** The small pieces of HTML a summary page is made of; every text that goes in is escaped here. */
final class Html {

  // Inline, so that the page looks the same opened from disk with no network.
  static final String STYLE = """
      body { font-family: sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
      h1 { font-size: 1.5em; }
      p.warning { background: #fff3cd; border-left: 4px solid #e0a800; padding: .5em 1em; }
      p, figcaption { overflow-wrap: anywhere; }
      .wide { max-width: 100%; overflow-x: auto; }
      table { border-collapse: collapse; margin: 1em 0 .3em; }
      caption { font-weight: bold; text-align: left; padding-bottom: .3em; }
      th, td { border: 1px solid #ccc; padding: .25em .6em; }
      th { background: #f2f2f2; }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      figure { margin: 1.5em 0; }
      figcaption { font-weight: bold; }
      pre { background: #f8f8f8; padding: .5em 1em; overflow-x: auto; }
      img { max-width: 100%; height: auto; }
      .files { font-size: .9em; margin-top: 0; }
      """;

  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
  // A scheme ("http:", "javascript:") or a network path ("//host") would leave the run folder.
  private static final Pattern NOT_RELATIVE = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*:|[/\\\\]{2}).*");

  private Html() {}

  /** @return the text with &amp; &lt; &gt; and both quotes escaped, safe in content and attributes */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** @return the text reduced to [a-z0-9-] for a file name, or the fallback if nothing is left */
  static String slug(String text, String fallback) {
    String ascii = Normalizer.normalize(text, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    String slug = ascii.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    return slug.isEmpty() ? fallback : slug;
  }

  /** @return the href unchanged if it stays inside the run folder */
  static String relativeHref(String href) {
    if (href.isBlank() || NOT_RELATIVE.matcher(href.strip()).matches()) {
      throw new IllegalArgumentException("not a relative link: '" + href + "'");
    }
    return href;
  }

  static String link(String text, String href) {
    return "<a href=\"" + escape(href) + "\">" + escape(text) + "</a>";
  }

  /** @return the page's head and heading, for the blocks to follow */
  static StringBuilder start(String title) {
    return new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>").append(escape(title)).append("</title>\n")
        .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n")
        .append("<h1>").append(escape(title)).append("</h1>\n");
  }

  /**
   * Appends charts embedded as data: URIs, so the page needs no file beside it to show them, under one caption; the
   * note, when not empty, says what they draw.
   */
  static void appendFigure(StringBuilder html, String caption, String note, List<byte[]> pngs, int width, int height,
      String... files) {
    html.append("<figure>\n");
    for (byte[] png : pngs) {
      html.append("<img src=\"data:image/png;base64,").append(Base64.getEncoder().encodeToString(png))
          .append("\" width=\"").append(width).append("\" height=\"").append(height)
          .append("\" alt=\"").append(escape(caption)).append("\">\n");
    }
    html.append("<figcaption>").append(escape(caption));
    appendFiles(html.append(' '), "span", files);
    if (!note.isEmpty()) {
      html.append("<br>").append(escape(note));
    }
    html.append("</figcaption>\n</figure>\n");
  }

  /** Appends links to the files written beside the page, e.g. a table's CSV. */
  static void appendFiles(StringBuilder html, String element, String... files) {
    html.append('<').append(element).append(" class=\"files\">");
    for (int i = 0; i < files.length; i++) {
      html.append(i == 0 ? "" : ", ").append(link(files[i], files[i]));
    }
    html.append("</").append(element).append('>');
  }

  static void appendTable(StringBuilder html, String caption, Table table) {
    // A table wider than the page scrolls inside its own box; the page itself never scrolls sideways.
    html.append("<div class=\"wide\">\n<table>\n<caption>").append(escape(caption)).append("</caption>\n<thead><tr>");
    table.columns().forEach(c -> html.append("<th>").append(escape(c)).append("</th>"));
    html.append("</tr></thead>\n<tbody>\n");
    for (List<String> row : table.rows()) {
      html.append("<tr>");
      for (String cell : row) {
        html.append(NUMBER.matcher(cell).matches() ? "<td class=\"num\">" : "<td>")
            .append(escape(cell)).append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</tbody>\n</table>\n</div>\n");
  }
}
