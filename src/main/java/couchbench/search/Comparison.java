package couchbench.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.DesignDocument;
import couchbench.couchdb.MangoIndex;
import java.util.List;
import java.util.Optional;

/**
 * A question of Search's asked of another engine than Nouveau ({@link Engine}): its request, and the indexes it needs,
 * built beside the Nouveau index. The questions: a word of the title (sorted by n, descending, or not), a tag, a range
 * of n, the count of each tag among a word's documents (a view's alone: Mango returns documents, it cannot count); each
 * engine's answer is checked as Nouveau's is, by {@link SearchCall}.
 */
final class Comparison {

  /**
   * A view by tag, one by n, one by each word of the title (once a document) with -n: a word's documents in the order
   * of n, descending, ties by id as Nouveau breaks them.
   */
  static final DesignDocument BY_TAG = new DesignDocument("compare-tag", "by",
      "function (doc) { if (typeof doc.title === 'string') { emit(doc.tag, null); } }");
  static final DesignDocument BY_N = new DesignDocument("compare-n", "by",
      "function (doc) { if (typeof doc.title === 'string') { emit(doc.n, null); } }");
  static final DesignDocument BY_WORD = new DesignDocument("compare-words", "by",
      "function (doc) { if (typeof doc.title !== 'string') return; var seen = {};"
      + " doc.title.split(' ').forEach(function (word) { if (!seen[word]) { seen[word] = true;"
      + " emit([word, -doc.n], null); } }); }");
  /**
   * Each word of the title (once a document) with the document's tag, counted by a _count reduce: one word's count of
   * each tag is one query, {@code group_level=2} over the word's keys.
   */
  static final DesignDocument BY_WORD_TAG = new DesignDocument("compare-word-tags", "by",
      "function (doc) { if (typeof doc.title !== 'string') return; var seen = {};"
      + " doc.title.split(' ').forEach(function (word) { if (!seen[word]) { seen[word] = true;"
      + " emit([word, doc.tag], null); } }); }", Optional.of("_count"));
  static final List<DesignDocument> VIEWS = List.of(BY_TAG, BY_N, BY_WORD, BY_WORD_TAG);

  /** Mango's JSON indexes: a tag, a range of n, and a sort by n. */
  static final MangoIndex TAG = new MangoIndex("tag", "tag");
  static final MangoIndex N = new MangoIndex("n", "n");
  static final List<MangoIndex> MANGO = List.of(TAG, N);

  /** Mango's own Nouveau index (CouchDB 3.5): n, a number. */
  static final String NOUVEAU_DDOC = "mango-nouveau";
  static final String NOUVEAU_NAME = "fields";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Engine engine;
  private final String database;
  private final boolean update;
  private ObjectNode selector;
  private ArrayNode sort;
  private MangoIndex index;
  private String view = "";
  private boolean grouped;

  /**
   * @param engine what answers the question
   * @param database the database
   * @param update false for update=false
   */
  Comparison(Engine engine, String database, boolean update) {
    this.engine = engine;
    this.database = database;
    this.update = update;
  }

  /** @return the body of POST /db/_index for Mango's Nouveau index */
  static String nouveauIndex() {
    ObjectNode body = JSON.createObjectNode().put("ddoc", NOUVEAU_DDOC).put("name", NOUVEAU_NAME)
        .put("type", "nouveau");
    body.putObject("index").putArray("fields").addObject().put("name", "n").put("type", "number");
    return body.toString();
  }

  /**
   * A word of the title: Mango by $regex (reading the documents: no index serves it), a view by the word.
   *
   * @param word the word
   * @param byN whether sorted by n, descending (Mango then reads n's index from its end)
   */
  void word(String word, boolean byN) {
    selector = JSON.createObjectNode();
    if (byN) {
      selector.putObject("n").put("$gte", 0);
      sort = JSON.createArrayNode();
      sort.addObject().put("n", "desc");
      index = N;
    }
    selector.putObject("title").put("$regex", "(^| )" + word + "( |$)");
    view = BY_WORD.queryPath(database) + "?startkey=" + SearchCall.encode("[\"" + word + "\"]") + "&endkey="
        + SearchCall.encode("[\"" + word + "\",{}]");
  }

  /** @param tag a tag, whole */
  void tag(String tag) {
    selector = JSON.createObjectNode().put("tag", tag);
    index = TAG;
    view = BY_TAG.queryPath(database) + "?key=" + SearchCall.encode(JSON.getNodeFactory().textNode(tag).toString());
  }

  /**
   * @param from the range's first n
   * @param to its last
   */
  void range(int from, int to) {
    selector = JSON.createObjectNode();
    selector.putObject("n").put("$gte", from).put("$lte", to);
    index = N;
    view = BY_N.queryPath(database) + "?startkey=" + from + "&endkey=" + to;
  }

  /**
   * The count of each tag among a word's documents: a view's groups of [word, tag].
   *
   * @param word the word
   */
  void wordTags(String word) {
    view = BY_WORD_TAG.queryPath(database) + "?startkey=" + SearchCall.encode("[\"" + word + "\"]") + "&endkey="
        + SearchCall.encode("[\"" + word + "\",{}]") + "&group_level=2";
    grouped = true;
  }

  /**
   * @param limit the most documents asked for
   * @return the request's path: _find, or the view's with its query string (a grouped one without a limit: each
   *     group is a count, and every one is asked)
   */
  String path(int limit) {
    return engine.mango() ? "/" + database + "/_find" : view + (grouped ? "" : "&limit=" + limit)
        + (update ? "" : "&update=false");
  }

  /**
   * @param limit the most documents asked for
   * @return the body of Mango's _find; "" for a view, whose path asks it all
   */
  String body(int limit) {
    if (!engine.mango()) {
      return "";
    }
    ObjectNode find = JSON.createObjectNode();
    find.set("selector", selector);
    find.put("limit", limit);
    if (sort != null) {
      find.set("sort", sort);
    }
    if (engine == Engine.MANGO_NOUVEAU) {
      find.putArray("use_index").add(NOUVEAU_DDOC).add(NOUVEAU_NAME);
    } else if (index != null) {
      find.set("use_index", index.useIndex());
    }
    if (!update) {
      find.put("update", false);
    }
    return find.toString();
  }
}
