package couchbench.search;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What answers a search: Nouveau's own endpoint, or, for the questions they can also answer, Mango {@code _find} (with
 * a JSON index where one serves), a map view, or Mango {@code _find} over a Nouveau index of Mango's own.
 */
public enum Engine {
  /** {@code GET /db/_design/search/_nouveau/docs?q=...}: every search class. */
  NOUVEAU("Nouveau", SearchClass.values()),
  /** {@code POST /db/_find}: tag and n through JSON indexes; a word of the title by $regex, reading every document. */
  MANGO("Mango _find, JSON indexes on tag and n; a title word by $regex", SearchClass.TERM, SearchClass.KEYWORD,
      SearchClass.RANGE, SearchClass.SORT_NUMBER),
  /**
   * {@code GET /db/_design/compare-*}: views keyed by tag, by n, and by each title word with -n; and by [title word,
   * tag] with a _count reduce, grouped for a word's count of each tag.
   */
  VIEW("map views keyed by tag, by n, by [title word, -n]; by [title word, tag] with _count, group_level=2",
      SearchClass.TERM, SearchClass.KEYWORD, SearchClass.RANGE, SearchClass.SORT_NUMBER, SearchClass.COUNTS),
  /**
   * {@code POST /db/_find} over a Mango index of type nouveau (CouchDB 3.5): a range of n alone. On CouchDB 3.5.0 its
   * equality on a string field finds nothing (a value with a space is refused: a phrase query of a field without
   * positions), and $text queries a default field that an index of named fields leaves empty (docs/search.md).
   */
  MANGO_NOUVEAU("Mango _find over a Nouveau index (\"type\": \"nouveau\") of n", SearchClass.RANGE);

  private final String description;
  private final Set<SearchClass> answers;

  Engine(String description, SearchClass... answers) {
    this.description = description;
    this.answers = Set.of(answers);
  }

  /** @return its name in -Dengines and request names, e.g. "mango_nouveau" */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return what it is */
  public String description() {
    return description;
  }

  /**
   * @param searchClass a search class
   * @return whether this engine answers it
   */
  public boolean answers(SearchClass searchClass) {
    return answers.contains(searchClass);
  }

  /** @return whether it is asked with a POST of _find (else a GET) */
  boolean mango() {
    return this == MANGO || this == MANGO_NOUVEAU;
  }

  /** @return every engine's name, in order */
  public static List<String> names() {
    return Arrays.stream(values()).map(Engine::value).toList();
  }
}
