package couchbench.search;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What a search asks, each a request name of its own, with the field's analyzer it goes through. */
public enum SearchClass {
  /** title:w, 25 hits: a word of the title (standard analyzer). */
  TERM("title:w, 25 hits"),
  /** title:"w1 w2": two words next to each other, as some title has them. */
  PHRASE("title:\"w1 w2\" (a phrase)"),
  /** title:abc*: the words starting so. */
  PREFIX("title:abc* (a prefix)"),
  /** title:b?ka: a word with one letter open. */
  WILDCARD("title:b?ka (a wildcard)"),
  /** title:w1 AND (title:w2 OR title:w3) AND NOT title:w4. */
  BOOLEAN("w1 AND (w2 OR w3) AND NOT w4"),
  /** n:[a TO b]: a numeric range, inclusive. */
  RANGE("n:[a TO b] (numbers)"),
  /** title:w sorted by n, descending, the first 25 in order. */
  SORT_NUMBER("title:w, sort -n, 25 in order"),
  /** title:w sorted by tag, then n, the first 25 in order. */
  SORT_STRING("title:w, sort tag then n, 25 in order"),
  /** title:w with the count of each tag among its hits. */
  COUNTS("title:w, counts of tag"),
  /** title:w with the count of its hits in four ranges of n. */
  RANGES("title:w, ranges of n"),
  /** title:w with its 10 documents (include_docs), each checked whole. */
  DOCS("title:w, include_docs, 10 hits"),
  /** title:w sorted by n, every hit, 25 a page, paged by bookmark: nothing missed or repeated. */
  BOOKMARK("title:w, sort n, every page by bookmark"),
  /** title:w, limit 1. */
  TOP("title:w, limit 1"),
  /** title:w, limit 200. */
  MANY("title:w, limit 200"),
  /** body:ws: a plural through the English analyzer, matching both forms. */
  STEMMED("body:ws (English analyzer)"),
  /** body_de:we: a plural through the German analyzer, matching both forms. */
  GERMAN("body_de:we (German analyzer)"),
  /** body_fr:wx: a plural through the French analyzer, matching both forms. */
  FRENCH("body_fr:wx (French analyzer)"),
  /** tag:"Red Sox": a whole, case-sensitive value (keyword analyzer). */
  KEYWORD("tag:\"Red Sox\" (keyword analyzer)");

  private final String description;

  SearchClass(String description) {
    this.description = description;
  }

  /** @return its name in -Dsearches and request names, e.g. "sort_number" */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return what it asks */
  public String description() {
    return description;
  }

  /** @return every class's name, in order */
  public static List<String> names() {
    return Arrays.stream(values()).map(SearchClass::value).toList();
  }

  /**
   * @param value a name, e.g. "range"
   * @return its class
   */
  public static SearchClass of(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
