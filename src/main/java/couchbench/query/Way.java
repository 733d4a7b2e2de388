package couchbench.query;

import java.util.Locale;

/** How a query class is asked: by Mango without an index, with one of its kinds of index, or of a view. */
public enum Way {
  /** Mango with no index in the database: the server reads every document of the database, or of the partition. */
  MANGO("mango, no index"),
  /** Mango with a JSON index, named in use_index. */
  INDEX("mango, JSON index"),
  /** Mango with a partial index (partial_filter_selector), named in use_index: the server never picks one itself. */
  PARTIAL("mango, partial index"),
  /** Mango with a JSON index and only the index's fields asked for: the server need not read the documents. */
  COVERING("mango, covering index"),
  /** The equivalent map view (with include_docs where Mango returns documents, _sum where it applies). */
  VIEW("view"),
  /** The primary index, by id range: a customer's ids share their prefix (global), or are its partition's. */
  ALL_DOCS("_all_docs by id");

  private final String description;

  Way(String description) {
    this.description = description;
  }

  /** @return its name in request names, e.g. "index" */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return what it is, e.g. "mango, JSON index" */
  public String description() {
    return description;
  }

  /** @return whether it is a Mango _find (else a GET of a view or of _all_docs) */
  public boolean mango() {
    return this != VIEW && this != ALL_DOCS;
  }

  /** @return whether it is asked of the database holding Mango's indexes (else of the one holding the views) */
  public boolean indexed() {
    return mango() && this != MANGO;
  }
}
